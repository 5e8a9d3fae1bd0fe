"""A sampled world keeps the entities it can say something of: three filled fields, or an
id and a name to call it by (a watchlist is its id, its name and its symbols; pruned, the
user had to quote 'wl_edyj78')."""

from prove_jax.synthesis.context import Context


def test_an_entity_with_a_name_is_kept_and_a_bare_reference_is_not():
    ctx = Context("trading", 0)
    ctx.add("get_watchlists", {"watchlists": [
        {"watchlist_id": "wl_k7qm2x", "name": "Main",
         "symbols": [{"symbol": "AAPL", "price": 190.5}]}]}, listed=True)
    ctx.add("list_orders", {"orders": [{"order_id": "ord_k7qm2x", "account_id": "acc_r4tw9b"}]},
            listed=True)
    ctx.prune()
    assert ctx.entity("watchlist", "wl_k7qm2x").label == ("name", "Main")
    assert ctx.entity("order", "ord_k7qm2x") is None  # an id and a pointer: nothing to say

"""How users ask for trading's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_to_watchlist": (
        "add {symbol} to my watchlist",
        "watch {symbol}[ in {watchlist_id}]",
        "start tracking {symbol}[ on {watchlist_id}]",
        "keep an eye on {symbol} for me[ in {watchlist_id}]",
    ),
    "cancel_order": (
        "cancel {order_id}",
        "pull {order_id} before it fills",
        "withdraw {order_id} so the money is free again",
    ),
    "deposit_funds": (
        "deposit {amount} into my brokerage account",
        "move {amount} in from my bank",
        "add {amount} of cash to my trading account",
        "fund the account with {amount}",
    ),
    "get_account_summary": (
        "show me my account summary",
        "how much cash and buying power do I have",
        "what's my account worth right now",
        "show my balance and recent deposits",
    ),
    "get_market_status": (
        "is the market open right now",
        "check whether the stock market is open",
        "tell me the market hours for today",
    ),
    "get_quote": (
        "what's {symbol} trading at",
        "get me a quote for {symbol}",
        "how is {symbol} doing today",
        "check the price of {symbol}",
    ),
    "get_watchlists": (
        "show me my watchlists",
        "show me the prices on {watchlist_id}",
        "check the stocks I'm watching[ in {watchlist_id}]",
        "pull up my watchlists with current prices",
    ),
    "list_orders": (
        "show me my orders[ that are {status}]",
        "list my orders[ for {symbol}][ on the {side} side]",
        "what orders do I have[ with status {status}][ in {symbol}]",
        "go through my recent orders[ (last {limit})]",
    ),
    "list_positions": (
        "show me my positions",
        "what stocks do I own",
        "how is my portfolio doing",
        "list my holdings with profit and loss",
    ),
    "list_trades": (
        "show me my trades[ in {symbol}]",
        "list my executed trades[ for {symbol}][, only the {side} side]",
        "show my fills[ of {symbol}][ on the {side} side][ (last {limit})]",
        "what have I traded lately[ in {symbol}] and what did I make on it",
    ),
    "place_order": (
        "place a {side} order for {quantity} shares of {symbol}[ at a limit of {limit_price}]",
        "put in an order to {side} {quantity} shares of {symbol}[ as a {order_type} order]",
        "submit an order to {side} {quantity} shares of {symbol}[ as a {order_type} order]"
        "[ with time in force {time_in_force}]",
        "put in a {side} order for {quantity} shares of {symbol}"
        "[ with a limit price of {limit_price}]",
        "place a {side} order for[ {quantity} shares of] {symbol}",
        "place an order for {quantity} shares of {symbol}",  # buy or sell left to ask
    ),
    "remove_from_watchlist": (
        "remove {symbol} from my watchlist",
        "stop watching {symbol}[ in {watchlist_id}]",
        "drop {symbol} from {watchlist_id}",
        "take {symbol} off {watchlist_id}",
    ),
    "search_symbols": (
        "find stocks[ matching {query}]",
        "look up the ticker for {query}",
        "search for stocks[ in the {sector} sector][ priced between {min_price} and {max_price}]",
        "show me stocks[ priced at least {min_price}][ no pricier than {max_price}]"
        "[ (first {limit})]",
    ),
}

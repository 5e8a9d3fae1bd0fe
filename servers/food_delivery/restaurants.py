"""food_delivery tools: restaurant search and menus."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.food_delivery.common import DOMAIN, clock, menu_item_out, restaurant_out
from servers.food_delivery.data import is_open
from servers.food_delivery.models import Menu, RestaurantList

Cuisine = Literal["italian", "japanese", "spanish", "indian", "french", "chinese", "mexican",
                  "american", "cafe"]
Category = Literal["starters", "mains", "sides", "desserts", "drinks", "coffee", "bakery",
                   "breakfast"]


def check_city(s: State, city: str) -> str:
    """The city's canonical name, or an error listing the cities the service covers."""
    for name in s.var("cities"):
        if name.lower() == city.strip().lower():
            return name
    raise ToolError(f"we do not deliver in {city!r}; service cities: "
                    + ", ".join(s.var("cities")))


@DOMAIN.tool(read_only=True)
def search_restaurants(
        s: State,
        city: Annotated[str | None, Arg("City to deliver in, e.g. 'Berlin'")] = None,
        cuisine: Annotated[Cuisine | None, Arg("Only this cuisine ('cafe' for coffee and "
                                               "bakeries)")] = None,
        query: Annotated[str | None, Arg("Words from the restaurant's name or a dish, e.g. "
                                         "'sushi' or 'carbonara'", min_length=1)] = None,
        min_rating: Annotated[float | None, Arg("Minimum rating", minimum=1,
                                                maximum=5)] = None,
        open_now: Annotated[bool, Arg("Only restaurants open right now")] = False,
        sort: Annotated[Literal["rating", "delivery_time", "delivery_fee"], Arg(
            "Order of results")] = "rating",
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> RestaurantList:
    """Search restaurants and cafes that deliver, by city, cuisine, name or dish, rating and
    opening hours."""
    town = check_city(s, city) if city is not None else None
    words = query.lower().split() if query else []
    dishes: dict[str, str] = {}
    if words:
        for it in s["menu_items"].rows():
            dishes[it["restaurant_id"]] = (dishes.get(it["restaurant_id"], "") + " "
                                           + it["name"].lower())
    when = clock(s)
    found = []
    for r in s["restaurants"].rows():
        text = f"{r['name']} {r['cuisine']}".lower() + dishes.get(r["restaurant_id"], "")
        if ((town is None or r["city"] == town) and (cuisine is None or r["cuisine"] == cuisine)
                and (min_rating is None or r["rating"] >= min_rating)
                and (not open_now or is_open(r, when)) and all(w in text for w in words)):
            found.append(r)
    key = {"rating": lambda r: (-r["rating"], r["restaurant_id"]),
           "delivery_time": lambda r: (r["delivery_min"], r["restaurant_id"]),
           "delivery_fee": lambda r: (r["delivery_fee"], r["restaurant_id"])}[sort]
    found.sort(key=key)
    pg = paging.page(found, limit, cursor, key="restaurant_id")
    return {"restaurants": [restaurant_out(s, r) for r in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_menu(
        s: State,
        restaurant_id: Annotated[str, Arg("Restaurant id, e.g. 'rst_nz8bxw' (from "
                                          "search_restaurants)")],
        category: Annotated[Category | None, Arg("Only this menu section")] = None,
        vegetarian_only: Annotated[bool, Arg("Only vegetarian dishes")] = False) -> Menu:
    """A restaurant's menu: item ids, prices, availability and option groups (sizes, spice
    levels, extras) to pass to add_to_cart."""
    r = s["restaurants"].get(restaurant_id)
    items = s["menu_items"].rows(lambda i: i["restaurant_id"] == restaurant_id)
    categories = list(dict.fromkeys(i["category"] for i in items))
    items = [i for i in items if (category is None or i["category"] == category)
             and (not vegetarian_only or i["vegetarian"])]
    return {"restaurant": restaurant_out(s, r), "categories": categories,
            "items": [menu_item_out(s, i) for i in items]}

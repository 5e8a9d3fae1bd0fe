"""food_delivery: seeded menus by cuisine, option groups and promo codes (static tables)."""

from __future__ import annotations


def _group(name: str, required: bool, multi: bool, *choices: tuple[str, float]) -> dict:
    return {"name": name, "required": required, "multi": multi,
            "choices": [{"name": n, "price": p} for n, p in choices]}


SIZE = _group("size", True, False, ("regular", 0.0), ("large", 3.0))
SPICE = _group("spice level", True, False, ("mild", 0.0), ("medium", 0.0), ("hot", 0.0))
PIZZA_EXTRAS = _group("extras", False, True, ("extra cheese", 1.5), ("mushrooms", 1.0),
                      ("olives", 1.0), ("chili flakes", 0.0))
PROTEIN = _group("protein", True, False, ("chicken", 0.0), ("beef", 2.0), ("tofu", 0.0),
                 ("shrimp", 3.0))
RICE = _group("side", True, False, ("steamed rice", 0.0), ("fried rice", 1.5),
              ("garlic naan", 2.0))
DONENESS = _group("doneness", True, False, ("medium rare", 0.0), ("medium", 0.0),
                  ("well done", 0.0))
BURGER_EXTRAS = _group("extras", False, True, ("cheese", 1.0), ("bacon", 2.0),
                       ("avocado", 1.5), ("fries", 2.5))
MILK = _group("milk", True, False, ("whole milk", 0.0), ("oat milk", 0.6), ("soy milk", 0.5))
COFFEE_EXTRAS = _group("extras", False, True, ("extra shot", 0.8), ("vanilla syrup", 0.5),
                       ("decaf", 0.0))
WASABI = _group("wasabi", True, False, ("with wasabi", 0.0), ("no wasabi", 0.0))
SALSA = _group("salsa", True, False, ("salsa verde", 0.0), ("pico de gallo", 0.0),
               ("habanero", 0.0))
DRINK_SIZE = _group("size", True, False, ("330 ml", 0.0), ("500 ml", 1.0))

# cuisine -> [(name, category, price, description, vegetarian, option groups)]
MENUS: dict[str, list[tuple[str, str, float, str, bool, list[dict]]]] = {
    "italian": [
        ("Bruschetta", "starters", 6.5, "Grilled bread, tomato, basil, garlic", True, []),
        ("Burrata", "starters", 9.0, "Burrata with cherry tomatoes and pesto", True, []),
        ("Margherita Pizza", "mains", 11.0, "Tomato, mozzarella, basil", True,
         [SIZE, PIZZA_EXTRAS]),
        ("Diavola Pizza", "mains", 13.0, "Spicy salami, tomato, mozzarella", False,
         [SIZE, PIZZA_EXTRAS]),
        ("Spaghetti Carbonara", "mains", 13.5, "Guanciale, egg yolk, pecorino", False, []),
        ("Penne Arrabbiata", "mains", 11.5, "Tomato, garlic, chili", True, [SPICE]),
        ("Lasagna", "mains", 14.0, "Beef ragu, bechamel, parmesan", False, []),
        ("Tiramisu", "desserts", 6.5, "Mascarpone, espresso, cocoa", True, []),
        ("Panna Cotta", "desserts", 6.0, "Vanilla cream, berry coulis", True, []),
        ("San Pellegrino", "drinks", 3.0, "Sparkling mineral water", True, [DRINK_SIZE]),
    ],
    "japanese": [
        ("Edamame", "starters", 4.5, "Steamed soy beans, sea salt", True, []),
        ("Gyoza", "starters", 7.0, "Pan-fried pork dumplings (6)", False, []),
        ("Salmon Nigiri", "mains", 9.5, "Four pieces of salmon nigiri", False, [WASABI]),
        ("California Roll", "mains", 10.0, "Crab, avocado, cucumber (8)", False, [WASABI]),
        ("Avocado Maki", "mains", 7.5, "Avocado roll (6)", True, [WASABI]),
        ("Chicken Teriyaki", "mains", 14.0, "Grilled chicken, teriyaki glaze", False, [RICE]),
        ("Tonkotsu Ramen", "mains", 14.5, "Pork broth, chashu, egg, noodles", False,
         [SPICE]),
        ("Mochi Ice Cream", "desserts", 5.5, "Three mochi: matcha, mango, strawberry", True,
         []),
        ("Green Tea", "drinks", 3.0, "Hot sencha", True, []),
        ("Ramune", "drinks", 3.5, "Japanese lemonade soda", True, []),
    ],
    "spanish": [
        ("Patatas Bravas", "starters", 6.0, "Fried potatoes, spicy tomato sauce, aioli", True,
         [SPICE]),
        ("Gambas al Ajillo", "starters", 10.5, "Garlic prawns in olive oil", False, []),
        ("Croquetas de Jamon", "starters", 7.5, "Ham croquettes (6)", False, []),
        ("Tortilla Espanola", "mains", 9.0, "Potato and onion omelette", True, []),
        ("Paella Valenciana", "mains", 18.0, "Saffron rice, chicken, rabbit, beans", False,
         [SIZE]),
        ("Seafood Paella", "mains", 21.0, "Saffron rice, prawns, mussels, squid", False,
         [SIZE]),
        ("Pimientos de Padron", "starters", 6.5, "Blistered green peppers, sea salt", True,
         []),
        ("Churros con Chocolate", "desserts", 6.0, "Churros with hot chocolate", True, []),
        ("Crema Catalana", "desserts", 5.5, "Custard with burnt sugar", True, []),
        ("Sangria", "drinks", 5.0, "Red wine sangria", True, [DRINK_SIZE]),
    ],
    "indian": [
        ("Samosa", "starters", 5.5, "Potato and pea pastries (2)", True, []),
        ("Onion Bhaji", "starters", 5.0, "Crispy onion fritters", True, []),
        ("Butter Chicken", "mains", 14.5, "Chicken in tomato butter sauce", False,
         [SPICE, RICE]),
        ("Chicken Tikka Masala", "mains", 14.0, "Tandoori chicken, masala sauce", False,
         [SPICE, RICE]),
        ("Lamb Rogan Josh", "mains", 16.0, "Slow-cooked lamb, Kashmiri chili", False,
         [SPICE, RICE]),
        ("Palak Paneer", "mains", 12.5, "Spinach and paneer", True, [SPICE, RICE]),
        ("Chana Masala", "mains", 11.0, "Chickpea curry", True, [SPICE, RICE]),
        ("Garlic Naan", "sides", 3.5, "Tandoor flatbread with garlic", True, []),
        ("Gulab Jamun", "desserts", 5.0, "Milk dumplings in syrup", True, []),
        ("Mango Lassi", "drinks", 4.5, "Yogurt mango drink", True, []),
    ],
    "french": [
        ("French Onion Soup", "starters", 8.5, "Onion broth, gruyere crouton", True, []),
        ("Escargots", "starters", 12.0, "Six snails in garlic butter", False, []),
        ("Croque Monsieur", "mains", 11.0, "Ham and cheese toastie, bechamel", False, []),
        ("Steak Frites", "mains", 24.0, "Sirloin, fries, pepper sauce", False, [DONENESS]),
        ("Coq au Vin", "mains", 19.5, "Chicken braised in red wine", False, []),
        ("Ratatouille", "mains", 14.0, "Provencal vegetable stew", True, []),
        ("Salade Nicoise", "mains", 13.0, "Tuna, egg, olives, green beans", False, []),
        ("Creme Brulee", "desserts", 7.0, "Vanilla custard, caramel crust", True, []),
        ("Tarte Tatin", "desserts", 7.5, "Caramelised apple tart", True, []),
        ("Orangina", "drinks", 3.5, "Sparkling orange soda", True, []),
    ],
    "chinese": [
        ("Spring Rolls", "starters", 5.5, "Vegetable spring rolls (4)", True, []),
        ("Pork Dumplings", "starters", 7.0, "Steamed dumplings (8)", False, []),
        ("Kung Pao", "mains", 13.5, "Wok-fried with peanuts and chili", False,
         [PROTEIN, SPICE, RICE]),
        ("Sweet and Sour", "mains", 12.5, "Crispy, pineapple, peppers", False,
         [PROTEIN, RICE]),
        ("Mapo Tofu", "mains", 11.5, "Silken tofu, Sichuan pepper sauce", True,
         [SPICE, RICE]),
        ("Peking Duck", "mains", 24.0, "Half duck, pancakes, hoisin", False, []),
        ("Egg Fried Rice", "sides", 5.0, "Wok-fried rice with egg", True, []),
        ("Chow Mein", "mains", 11.0, "Stir-fried noodles", False, [PROTEIN]),
        ("Sesame Balls", "desserts", 5.0, "Red bean filled sesame balls", True, []),
        ("Jasmine Tea", "drinks", 2.5, "Hot jasmine tea", True, []),
    ],
    "mexican": [
        ("Nachos", "starters", 8.0, "Tortilla chips, cheese, jalapenos", True, [SALSA]),
        ("Guacamole", "starters", 7.0, "Avocado, lime, chips", True, []),
        ("Tacos al Pastor", "mains", 12.0, "Three pork tacos, pineapple", False, [SALSA]),
        ("Chicken Burrito", "mains", 12.5, "Rice, beans, chicken, cheese", False,
         [SIZE, SALSA]),
        ("Veggie Burrito", "mains", 11.0, "Rice, beans, peppers, guacamole", True,
         [SIZE, SALSA]),
        ("Quesadilla", "mains", 10.0, "Cheese quesadilla", True, [PROTEIN]),
        ("Enchiladas Verdes", "mains", 13.0, "Chicken enchiladas, green sauce", False, []),
        ("Elote", "sides", 4.5, "Grilled corn, chili, cotija", True, []),
        ("Churros", "desserts", 5.5, "Cinnamon churros, dulce de leche", True, []),
        ("Horchata", "drinks", 4.0, "Rice cinnamon drink", True, [DRINK_SIZE]),
    ],
    "american": [
        ("Buffalo Wings", "starters", 9.5, "Eight wings, blue cheese dip", False, [SPICE]),
        ("Mac and Cheese", "sides", 7.5, "Baked cheddar macaroni", True, []),
        ("Classic Cheeseburger", "mains", 13.0, "Beef patty, cheddar, pickles", False,
         [DONENESS, BURGER_EXTRAS]),
        ("BBQ Bacon Burger", "mains", 15.0, "Beef, bacon, BBQ sauce, onion rings", False,
         [DONENESS, BURGER_EXTRAS]),
        ("Veggie Burger", "mains", 12.5, "Black bean patty, avocado", True,
         [BURGER_EXTRAS]),
        ("Pulled Pork Sandwich", "mains", 13.5, "Smoked pork, slaw", False, []),
        ("Caesar Salad", "mains", 11.0, "Romaine, parmesan, croutons", False, [PROTEIN]),
        ("Fries", "sides", 4.0, "Skin-on fries", True, [SIZE]),
        ("Cheesecake", "desserts", 7.0, "New York cheesecake", True, []),
        ("Milkshake", "drinks", 6.0, "Vanilla, chocolate or strawberry", True, [SIZE]),
    ],
    "cafe": [
        ("Espresso", "coffee", 2.5, "Double shot", True, [COFFEE_EXTRAS]),
        ("Cappuccino", "coffee", 3.8, "Espresso, steamed milk, foam", True,
         [SIZE, MILK, COFFEE_EXTRAS]),
        ("Flat White", "coffee", 4.0, "Double ristretto, microfoam", True,
         [MILK, COFFEE_EXTRAS]),
        ("Iced Latte", "coffee", 4.5, "Espresso over milk and ice", True,
         [SIZE, MILK, COFFEE_EXTRAS]),
        ("Chai Latte", "coffee", 4.2, "Spiced tea with milk", True, [SIZE, MILK]),
        ("Croissant", "bakery", 3.0, "All-butter croissant", True, []),
        ("Pain au Chocolat", "bakery", 3.4, "Chocolate croissant", True, []),
        ("Cinnamon Roll", "bakery", 3.8, "Cardamom cinnamon bun", True, []),
        ("Avocado Toast", "breakfast", 9.0, "Sourdough, avocado, chili, lime", True, []),
        ("Ham and Cheese Sandwich", "breakfast", 7.5, "Baguette, ham, comte", False, []),
        ("Banana Bread", "bakery", 3.5, "Slice of banana walnut bread", True, []),
    ],
}

# code, description, kind, value, min subtotal, max discount, cuisine, expires, single use, used
PROMOS = [
    ("WELCOME10", "10% off your first order", "percent", 10, 0, 10.0, None, "2026-12-31",
     True, True),
    ("SAVE15", "15% off orders of $30 or more (up to $12)", "percent", 15, 30, 12.0, None,
     "2026-09-30", False, False),
    ("FREEDEL", "Free delivery on orders of $15 or more", "free_delivery", 0, 15, None, None,
     "2026-07-31", False, False),
    ("PASTA5", "$5 off Italian orders of $20 or more", "fixed", 5, 20, None, "italian",
     "2026-08-31", False, False),
    ("CURRY20", "20% off Indian food over $25 (up to $10)", "percent", 20, 25, 10.0, "indian",
     "2026-07-15", False, False),
    ("COFFEE2", "$2 off cafe orders of $8 or more", "fixed", 2, 8, None, "cafe", "2026-12-31",
     False, False),
    ("SUMMER26", "$8 off orders of $40 or more, one use", "fixed", 8, 40, None, None,
     "2026-08-31", True, False),
    ("SPRING5", "$5 off any order", "fixed", 5, 10, None, None, "2026-05-31", False, False),
]

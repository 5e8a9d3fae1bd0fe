"""Local formats of each world city: phone numbers (country calling code and the local mobile
format), street names, how a street address is written and postal codes.

A person's phone and home address come from their own city, a place's address from the place's
city, so 'Berlin' never gets a '+1-555' number or a '42 Main St'.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Locale:
    calling_code: str  # '+49'
    phones: tuple[str, ...]  # formats: each '#' is a random digit
    streets: tuple[str, ...]
    address: str  # '{n} {street}' or '{street} {n}'
    postal: tuple[str, ...]  # formats: '#' a digit, '@' a capital letter


LOCALES = {
    "Lisbon": Locale("+351", ("+351 91# ### ###", "+351 93# ### ###", "+351 96# ### ###"),
                     ("Rua Augusta", "Avenida da Liberdade", "Rua do Ouro", "Rua da Prata",
                      "Rua Garrett", "Calçada do Combro"), "{street}, {n}",
                     ("11##-###", "12##-###")),
    "Berlin": Locale("+49", ("+49 151 ########", "+49 160 ########", "+49 176 ########"),
                     ("Friedrichstraße", "Torstraße", "Kastanienallee", "Oranienstraße",
                      "Karl-Marx-Allee", "Schönhauser Allee"), "{street} {n}",
                     ("101##", "104##", "107##", "120##")),
    "Paris": Locale("+33", ("+33 6 ## ## ## ##", "+33 7 ## ## ## ##"),
                    ("Rue de Rivoli", "Rue Oberkampf", "Boulevard Voltaire", "Rue du Bac",
                     "Avenue de la République", "Rue des Martyrs"), "{n} {street}",
                    ("7500#", "7501#")),
    "Madrid": Locale("+34", ("+34 6## ### ###",),
                     ("Calle de Alcalá", "Gran Vía", "Calle Mayor", "Calle de Serrano",
                      "Calle de Atocha", "Calle de Fuencarral"), "{street}, {n}",
                     ("2800#", "2801#", "2802#")),
    "Amsterdam": Locale("+31", ("+31 6 ########",),
                        ("Prinsengracht", "Keizersgracht", "Haarlemmerstraat",
                         "Utrechtsestraat", "Damrak", "Ferdinand Bolstraat"), "{street} {n}",
                        ("101# @@", "105# @@", "107# @@")),
    "London": Locale("+44", ("+44 7### ######",),
                     ("Baker Street", "Upper Street", "King's Road", "Old Street",
                      "Marylebone High Street", "Brick Lane"), "{n} {street}",
                     ("EC1A #@@", "N1 #@@", "SW3 #@@", "W1U #@@", "E1 #@@")),
    "New York": Locale("+1", ("+1 212-###-####", "+1 646-###-####", "+1 917-###-####"),
                       ("Broadway", "Lexington Ave", "W 14th St", "Bleecker St", "Madison Ave",
                        "Atlantic Ave"), "{n} {street}", ("100##", "112##")),
    "San Francisco": Locale("+1", ("+1 415-###-####", "+1 628-###-####"),
                            ("Market St", "Valencia St", "Mission St", "Divisadero St",
                             "Haight St", "Geary Blvd"), "{n} {street}", ("941##",)),
    "Tokyo": Locale("+81", ("+81 90-####-####", "+81 80-####-####", "+81 70-####-####"),
                    ("Jingumae, Shibuya-ku", "Ginza, Chuo-ku", "Roppongi, Minato-ku",
                     "Nishi-Shinjuku, Shinjuku-ku", "Kichijoji, Musashino-shi",
                     "Asakusa, Taito-ku"), "{n} {street}", ("1##-####",)),
    "Singapore": Locale("+65", ("+65 8### ####", "+65 9### ####"),
                        ("Orchard Road", "Tanjong Pagar Road", "Telok Ayer Street",
                         "Beach Road", "Holland Avenue", "River Valley Road"), "{n} {street}",
                        ("0#####", "2#####")),
    "Toronto": Locale("+1", ("+1 416-###-####", "+1 647-###-####"),
                      ("Queen St W", "King St W", "Yonge St", "Dundas St W", "Spadina Ave",
                       "College St"), "{n} {street}", ("M5V #@#", "M6J #@#", "M4Y #@#")),
    "Sydney": Locale("+61", ("+61 4## ### ###",),
                     ("George St", "Oxford St", "Crown St", "Pitt St", "Glebe Point Rd",
                      "Campbell Pde"), "{n} {street}", ("20##",)),
}
_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"  # as in UK and Canadian postcodes (no C, I, K, M, O, V)


def fill(fmt: str, number: int) -> str:
    """The format with its '#'s and '@'s taken, in turn, from the digits of `number`."""
    out, n = [], number
    for ch in fmt:
        if ch == "#":
            n, d = divmod(n, 10)
            out.append(str(d))
        elif ch == "@":
            n, d = divmod(n, len(_LETTERS))
            out.append(_LETTERS[d])
        else:
            out.append(ch)
    return "".join(out)


def phone(city: str, n: int) -> str:
    """A plausible mobile number in the city's country, spread from `n` (any int): the world
    draws the same two numbers it drew for the old '+1-555' ones, so every later draw of the
    world's stream (usernames, titles, places) stays where it was."""
    loc = LOCALES[city]
    digits = f"{n * 0x9E3779B97F4A7C15 % 10**15:015d}"  # Fibonacci hashing: spread apart
    return _template(loc.phones[n % len(loc.phones)]).format(digits)


@functools.cache
def _template(fmt: str) -> str:
    """'+49 151 ##' -> '+49 151 {0[0]}{0[1]}': make_world formats 60 phones a world, so each
    format is compiled once into one str.format call."""
    count = iter(range(len(fmt)))
    return re.sub("#", lambda _: f"{{0[{next(count)}]}}", fmt)


def street_address(city: str, n: int, k: int) -> str:
    """House number `n` (1-240) on the city's street `k` (any int), written the local way
    ('Torstraße 12', '12 Baker Street'; Tokyo's block numbers '1-12-3 Ginza, Chuo-ku')."""
    loc = LOCALES[city]
    number = f"{n % 4 + 1}-{n // 4 % 30 + 1}-{n % 7 + 1}" if city == "Tokyo" else n
    return loc.address.format(n=number, street=loc.streets[k % len(loc.streets)])


def random_street_address(city: str, rng: random.Random) -> str:
    return street_address(city, rng.randint(1, 240), rng.randrange(len(LOCALES[city].streets)))


def postal_code(city: str, rng: random.Random) -> str:
    return fill(rng.choice(LOCALES[city].postal), rng.randrange(10**9))

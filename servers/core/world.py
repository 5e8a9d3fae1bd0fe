"""The shared world: people, companies, cities and places generated from one seed.

Every server builds its state on the same world, so one task can span servers ("email the
person who opened ticket X", "book a table at the restaurant found on maps"). Generation is
pure and deterministic: `random.Random` seeded with a string (stable across processes, unlike
`hash()`), no set iteration, no clock.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from servers.core import locales
from servers.core.hours import Hours, make_hours
from servers.core.meetings import Meeting, make_meetings

# The world's own ids (people, companies, places, meetings) are positional here; every server
# shows them sealed into opaque ids of the seed (servers.core.ids), identical on all servers.
WORLD_ID_PREFIXES = frozenset({"p", "co", "pl", "mtg"})
REFERENCE_DATE = dt.date(2026, 6, 15)  # "today" in every world; data is dated relative to it

FIRST = ["Alice", "Bruno", "Chen", "Dana", "Elif", "Farid", "Grace", "Hiro", "Ines", "Jonas",
         "Kavya", "Liam", "Maya", "Nikolai", "Olivia", "Pedro", "Quinn", "Rosa", "Samir",
         "Tara", "Umar", "Vera", "Wei", "Ximena", "Yusuf", "Zoe", "Amara", "Ben", "Camila",
         "Diego", "Emma", "Felix", "Hana", "Isaac", "Julia", "Kofi", "Lena", "Marco", "Nora",
         "Oscar", "Priya", "Rafael", "Sofia", "Theo", "Uma", "Victor", "Yara", "Zain"]
LAST = ["Anderson", "Becker", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
        "Ito", "Jensen", "Kim", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Quiroga",
        "Rossi", "Schmidt", "Tanaka", "Usman", "Varga", "Wang", "Xu", "Yilmaz", "Zhang",
        "Novak", "Silva", "Murphy", "Kowalski", "Horvath", "Ahmed", "Bauer", "Cohen"]
COMPANY_A = ["North", "Blue", "Silver", "Bright", "Green", "Iron", "Clear", "Swift", "Red",
             "Summit", "Harbor", "Cedar", "Nova", "Atlas", "Pioneer", "Golden"]
COMPANY_B = ["Analytics", "Logistics", "Foods", "Robotics", "Health", "Energy", "Media",
             "Labs", "Systems", "Capital", "Design", "Motors", "Textiles", "Software"]
INDUSTRY = {"Analytics": "data", "Logistics": "transport", "Foods": "food", "Robotics":
            "manufacturing", "Health": "healthcare", "Energy": "energy", "Media": "media",
            "Labs": "research", "Systems": "software", "Capital": "finance", "Design": "design",
            "Motors": "automotive", "Textiles": "retail", "Software": "software"}
TITLES = ["Engineer", "Analyst", "Designer", "Product Manager", "Sales Lead", "Accountant",
          "Recruiter", "Support Specialist", "Data Scientist", "Marketing Manager", "CTO",
          "Operations Manager", "Consultant", "Researcher"]
# name, country, lat, lon, airport code, IANA time zone, currency (ISO 4217)
CITIES = [
    ("Lisbon", "Portugal", 38.7223, -9.1393, "LIS", "Europe/Lisbon", "EUR"),
    ("Berlin", "Germany", 52.52, 13.405, "BER", "Europe/Berlin", "EUR"),
    ("Paris", "France", 48.8566, 2.3522, "CDG", "Europe/Paris", "EUR"),
    ("Madrid", "Spain", 40.4168, -3.7038, "MAD", "Europe/Madrid", "EUR"),
    ("Amsterdam", "Netherlands", 52.3676, 4.9041, "AMS", "Europe/Amsterdam", "EUR"),
    ("London", "United Kingdom", 51.5072, -0.1276, "LHR", "Europe/London", "GBP"),
    ("New York", "United States", 40.7128, -74.006, "JFK", "America/New_York", "USD"),
    ("San Francisco", "United States", 37.7749, -122.4194, "SFO", "America/Los_Angeles",
     "USD"),
    ("Tokyo", "Japan", 35.6762, 139.6503, "HND", "Asia/Tokyo", "JPY"),
    ("Singapore", "Singapore", 1.3521, 103.8198, "SIN", "Asia/Singapore", "SGD"),
    ("Toronto", "Canada", 43.6532, -79.3832, "YYZ", "America/Toronto", "CAD"),
    ("Sydney", "Australia", -33.8688, 151.2093, "SYD", "Australia/Sydney", "AUD")]
# digits after the decimal point of each currency's minor unit (ISO 4217)
CURRENCY_DIGITS = {"EUR": 2, "GBP": 2, "USD": 2, "JPY": 0, "SGD": 2, "CAD": 2, "AUD": 2}
# the local time of day at which every session of a world starts, in the user's home city
WORLD_TIME = dt.time(12, 0)
PLACE_KINDS = {
    "restaurant": ["Trattoria {a}", "{a} Bistro", "{a} Sushi Bar", "The {a} Grill",
                   "{a} Tapas", "{a} Noodle House", "Casa {a}", "{a} Curry Kitchen"],
    "cafe": ["{a} Coffee", "Cafe {a}", "{a} Bakery"],
    "hotel": ["Hotel {a}", "{a} Suites", "The {a} Inn"],
    "store": ["{a} Market", "{a} Electronics", "{a} Books", "{a} Outfitters"],
    "landmark": ["{a} Museum", "{a} Park", "{a} Gallery", "{a} Tower"],
}
CUISINES = ["italian", "japanese", "spanish", "indian", "french", "chinese", "mexican",
            "american"]
# the cuisines a restaurant name pattern promises (a generic name may serve any cuisine)
PATTERN_CUISINES = {"Trattoria {a}": ("italian",), "{a} Bistro": ("french",),
                    "{a} Sushi Bar": ("japanese",), "{a} Tapas": ("spanish",),
                    "{a} Noodle House": ("chinese", "japanese"),
                    "Casa {a}": ("mexican", "spanish"), "{a} Curry Kitchen": ("indian",)}
ADJ = ["Olive", "Lotus", "Maple", "Harbor", "Golden", "Willow", "Coral", "Juniper", "Saffron",
       "Azure", "Ember", "Velvet", "Cobalt", "Amber", "Linden", "Marble"]


@dataclass(frozen=True)
class Person:
    id: str
    first_name: str
    last_name: str
    name: str
    email: str
    phone: str
    username: str
    company_id: str
    title: str
    city: str


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    domain: str
    industry: str
    city: str


@dataclass(frozen=True)
class City:
    name: str
    country: str
    lat: float
    lon: float
    airport: str
    tz: str  # IANA time zone name
    currency: str  # ISO 4217 code
    calling_code: str  # '+49': every phone number in the city starts with it


@dataclass(frozen=True)
class Address:
    street: str  # written the local way: 'Torstraße 12', '12 Baker Street'
    postal_code: str
    city: str
    country: str


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    kind: str
    city: str
    address: str
    lat: float
    lon: float
    cuisine: str | None
    rating: float


@dataclass(frozen=True)
class World:
    seed: int
    reference_date: dt.date
    people: tuple[Person, ...]
    companies: tuple[Company, ...]
    cities: tuple[City, ...]
    # where the world's random stream stood after the people: the places continue from it
    places_rng_state: tuple = field(repr=False, compare=False)

    # Derived parts are computed on first use and kept (a frozen dataclass still has a
    # __dict__): most servers never read the places, and opening a session of a new seed
    # should not pay for them.
    @functools.cached_property
    def places(self) -> tuple[Place, ...]:
        """Restaurants, cafes, hotels, stores and landmarks of every city."""
        rng = random.Random()
        rng.setstate(self.places_rng_state)
        return _make_places(rng, self.cities)

    @functools.cached_property
    def opening_hours(self) -> dict[str, Hours]:
        """Each place's weekly hours by place id, local to its city: the one source maps,
        food_delivery, travel_booking and retail_chain read, so a place is open on all of
        them or none."""
        rng = rng_for(self.seed, "hours")
        country = {c.name: c.country for c in self.cities}
        return {p.id: make_hours(p.kind, p.name, country[p.city], rng) for p in self.places}

    @functools.cached_property
    def meetings(self) -> tuple[Meeting, ...]:
        """The user's video meetings around the reference date: video_meeting holds them and
        calendar holds each (not cancelled) one as an event with the same title, times and
        attendees."""
        return make_meetings(self)

    def address(self, person_id: str) -> Address:
        """The person's home address in their own city (its own stream: only the servers that
        show a home pay for it)."""
        person = self.person(person_id)
        rng = rng_for(self.seed, "address", person_id)
        city = self.city(person.city)
        return Address(street=locales.random_street_address(city.name, rng),
                       postal_code=locales.postal_code(city.name, rng), city=city.name,
                       country=city.country)

    def city(self, name: str) -> City:
        found = next((c for c in self.cities if c.name == name), None)
        if found is None:
            raise KeyError(f"no city {name!r} in the world")
        return found

    @property
    def user(self) -> Person:
        """The person who uses every service in this world (the assistant's principal)."""
        return self.people[0]

    @functools.cached_property
    def home(self) -> City:
        """The user's home city: its time zone and currency are the whole world's."""
        return next(c for c in self.cities if c.name == self.user.city)

    @functools.cached_property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.home.tz)

    @property
    def now(self) -> dt.datetime:
        """The instant every server's sessions start at (aware, in the home time zone)."""
        return dt.datetime.combine(self.reference_date, WORLD_TIME, tzinfo=self.tz)

    @property
    def currency(self) -> str:
        """The one currency of every amount in this world (no exchange between currencies)."""
        return self.home.currency

    def person(self, person_id: str) -> Person:
        # A KeyError naming the id, not a bare StopIteration (which a generator turns into
        # "generator raised StopIteration").
        found = next((p for p in self.people if p.id == person_id), None)
        if found is None:
            raise KeyError(f"no person {person_id!r} in the world of seed {self.seed}")
        return found

    def company(self, company_id: str) -> Company:
        found = next((c for c in self.companies if c.id == company_id), None)
        if found is None:
            raise KeyError(f"no company {company_id!r} in the world of seed {self.seed}")
        return found


_CITIES = tuple(City(*c, calling_code=locales.LOCALES[c[0]].calling_code) for c in CITIES)


def rng_for(seed: int, *scope: str) -> random.Random:
    """An independent, process-stable random stream for (seed, scope)."""
    return random.Random(":".join([str(seed), *scope]))


@functools.lru_cache(maxsize=64)
def make_world(seed: int, n_people: int = 60, n_companies: int = 20) -> World:
    rng = rng_for(seed, "world")
    names = rng.sample([(c, d) for c in COMPANY_A for d in COMPANY_B], n_companies)
    companies = tuple(
        Company(id=f"co_{i + 1:03d}", name=f"{a}{b} {rng.choice(['Inc', 'Ltd', 'GmbH', 'Co'])}",
                domain=f"{a.lower()}{b.lower()}.com", industry=INDUSTRY[b],
                city=rng.choice(CITIES)[0])
        for i, (a, b) in enumerate(names))
    full_names = rng.sample([(f, last) for f in FIRST for last in LAST], n_people)
    people = []
    for i, (first, last) in enumerate(full_names):
        company = companies[i % n_companies] if i else rng.choice(companies)
        people.append(Person(
            id=f"p_{i + 1:03d}", first_name=first, last_name=last, name=f"{first} {last}",
            email=f"{first.lower()}.{last.lower()}@{company.domain}",
            phone=locales.phone(company.city,
                                rng.randint(100, 999) * 10_000 + rng.randint(1000, 9999)),
            username=f"{first.lower()}{last.lower()[:3]}{rng.randint(1, 99)}",
            company_id=company.id, title=rng.choice(TITLES), city=company.city))
    return World(seed=seed, reference_date=REFERENCE_DATE, people=tuple(people),
                 companies=companies, cities=_CITIES,
                 places_rng_state=rng.getstate())


def _make_places(rng: random.Random, cities: tuple[City, ...]) -> tuple[Place, ...]:
    places, k = [], 0
    for city in cities:
        for kind, patterns in PLACE_KINDS.items():
            for pattern in rng.sample(patterns, min(len(patterns), 2 if kind != "restaurant"
                                                    else 4)):
                k += 1
                adj = rng.choice(ADJ)
                # a restaurant serves what its name promises ('Maple Sushi Bar': japanese);
                # draws as wide as before (12 streets, 8 cuisines) keep the stream in step
                cuisines = PATTERN_CUISINES.get(pattern, CUISINES)
                street = locales.street_address(city.name, rng.randint(1, 240),
                                                rng.randrange(12))
                places.append(Place(
                    id=f"pl_{k:04d}", name=pattern.format(a=adj), kind=kind, city=city.name,
                    address=f"{street}, {city.name}",
                    lat=round(city.lat + rng.uniform(-0.05, 0.05), 5),
                    lon=round(city.lon + rng.uniform(-0.05, 0.05), 5),
                    cuisine=(cuisines[rng.randrange(len(CUISINES)) % len(cuisines)]
                             if kind == "restaurant" else None),
                    rating=round(rng.uniform(3.2, 4.9), 1)))
    return tuple(places)


def days_ago(world: World, days: int, rng: random.Random | None = None) -> str:
    """An ISO timestamp `days` before the reference date (with a random time of day), local to
    the world's zone, with its UTC offset."""
    hour, minute = (rng.randint(7, 21), rng.choice([0, 15, 30, 45])) if rng else (9, 0)
    if days == 0 and hour >= WORLD_TIME.hour:
        hour = 7 + hour % (WORLD_TIME.hour - 7)  # seeded "today" is before the world's now
    when = dt.datetime.combine(world.reference_date - dt.timedelta(days=days),
                               dt.time(hour, minute), tzinfo=world.tz)
    return when.isoformat(timespec="minutes")

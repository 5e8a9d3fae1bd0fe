"""The initial tree of the filesystem server, built from the shared world.

Every home has the same top-level folders (documents, projects, notes, reports, photos,
downloads); what is in them varies by seed: which files there are and what they are called
(dated, numbered or named after the world's people, places and companies), how many photos,
reports and projects, which archives exist, and figures drawn from the domain's rng.
"""

from __future__ import annotations

import random
import re

from servers.core.state import Row, State
from servers.core.world import Person, World, days_ago

SYSTEM = "root"
QUOTA_BYTES = 262_144  # 256 KiB: small enough that bulk copies can hit it
TOP_DIRS = ("documents", "projects", "notes", "reports", "photos", "downloads")
MONTHS = ["jan", "feb", "mar", "apr", "may"]


class Tree:
    """The files being generated (home-relative path -> content), with their tags and which
    are read-only."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.tags: dict[str, list[str]] = {}
        self.read_only: set[str] = set()

    def add(self, path: str, content: str, tags: tuple[str, ...] = (),
            locked: bool = False) -> str:
        self.files[path] = content
        if tags:
            self.tags[path] = list(tags)
        if locked:
            self.read_only.add(path)
        return path


def slug(text: str) -> str:
    """'Cedar Logistics, Berlin' -> 'cedar_logistics_berlin': a name part for files."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _csv(header: str, rows: list[list[object]]) -> str:
    return "\n".join([header, *(",".join(str(v) for v in r) for r in rows)]) + "\n"


def _documents(tree: Tree, world: World, rng: random.Random, u: Person,
               peers: list[Person]) -> None:
    co = world.company(u.company_id)
    partner = rng.choice([c for c in world.companies if c.id != co.id])
    a, b, c = peers[0], peers[1], peers[2]
    fee = rng.randrange(18, 90) * 1000
    first, last = slug(u.first_name), slug(u.name.split()[-1])
    resume = (f"# {u.name}\n\n{u.title} at {co.name} ({u.city})\n{u.email} | {u.phone}\n\n"
              f"## Experience\n- {co.name}, {u.title} (2021-present)\n"
              f"  - Led the migration of reporting to a shared data platform\n"
              f"  - Mentored {rng.randint(2, 6)} junior colleagues\n"
              f"- {partner.name}, Analyst (2017-2021)\n\n## Skills\nPython, SQL, "
              "forecasting, stakeholder communication\n")
    tree.add("documents/" + rng.choice([f"resume_{last}.md", f"cv_{first}_{last}.md",
                                        f"{last}_resume_2026.md"]), resume, ("career",))
    held = days_ago(world, rng.randint(12, 40))[:10]
    meeting = (f"# Q2 planning meeting\nDate: {held}\n"
               f"Attendees: {u.name}, {a.name}, {b.name}, {c.name}\n\n## Decisions\n"
               f"- {a.first_name} owns the {partner.name} renewal (deadline end of June)\n"
               f"- Budget for the {co.city} office fit-out approved: ${fee:,}\n"
               f"- {b.first_name} to circulate the hiring plan by Friday\n\n## Action items\n"
               f"- [ ] {u.first_name}: send the sales report to {c.name}\n"
               f"- [ ] {a.first_name}: book the offsite venue\n"
               f"- [x] {b.first_name}: close the TODO list from Q1\n")
    tree.add("documents/" + rng.choice(["meeting_notes_", "q2_planning_", "planning_notes_"])
             + held.replace("-", "") + ".md", meeting)
    contract = (f"SERVICE AGREEMENT\n\nBetween {co.name} (\"Client\") and {partner.name} "
                f"(\"Provider\").\n\n1. Scope. Provider delivers analytics and {partner.industry} "
                "services as listed in Annex A.\n"
                f"2. Fees. Client pays ${fee:,} per year, invoiced quarterly.\n"
                "3. Term. Twelve months from signature, renewing unless cancelled with 60 days "
                f"notice.\n4. Contacts. Client: {u.name} <{u.email}>. Provider: {a.name} "
                f"<{a.email}>.\n\nSigned in {co.city}.\n")
    tree.add(f"documents/contract_{partner.domain.split('.')[0]}.txt", contract,
             ("work", "legal"), locked=True)
    employer = world.company(b.company_id)
    if rng.random() < 0.7:  # not everyone is job hunting
        cover = (f"Dear {b.name},\n\nI am writing to apply for the {b.title} role at "
                 f"{employer.name}. As a {u.title} at {co.name} I have "
                 "built forecasting tools used across the company.\n\nKind regards,\n"
                 f"{u.name}\n")
        tree.add(f"documents/cover_letter_{slug(employer.name)}.txt", cover)
    trip_from = next(x for x in world.cities if x.name == u.city)
    for dest in rng.sample([x for x in world.cities if x.name != u.city], rng.randint(1, 2)):
        hotel = next((p for p in world.places if p.city == dest.name and p.kind == "hotel"),
                     None)
        itinerary = (f"Trip to {dest.name}, {dest.country}\n\nOutbound: {trip_from.airport} -> "
                     f"{dest.airport}, flight FS{rng.randint(100, 999)}, 08:40\n"
                     f"Return:   {dest.airport} -> {trip_from.airport}, flight "
                     f"FS{rng.randint(100, 999)}, 18:15\n"
                     f"Hotel: {hotel.name if hotel else 'TBD'}, "
                     f"{hotel.address if hotel else dest.name}\n"
                     f"Meeting: {c.name} ({world.company(c.company_id).name})\n")
        month = rng.choice(["jun", "jul", "aug", "sep"])
        tree.add(f"documents/trip_{slug(dest.name)}_{month}.txt", itinerary)


# name, module, what it does (a small Python service each)
SERVICES = [("inventory-api", "inventory", "Stock levels for {co} warehouses"),
            ("billing-service", "billing", "Invoices and payments of {co} customers"),
            ("route-planner", "routes", "Delivery routes between {co} sites"),
            ("room-booking", "rooms", "Meeting-room bookings at the {co} offices"),
            ("crm-sync", "contacts", "Customer contacts synced into the {co} CRM")]
PIPELINES = ["data-pipeline", "etl-jobs", "reporting-jobs", "metrics-batch"]


def _service(tree: Tree, co: str, u: Person, name: str, module: str, about: str) -> None:
    root = f"projects/{name}/"
    thing = module.rstrip("s").capitalize()
    tree.add(root + "README.md", (f"# {name}\n\n{about.format(co=co)}.\n\n"
                                  f"## Run\n    pip install -r requirements.txt\n"
                                  f"    python {module}_app.py\n\n"
                                  f"Maintainer: {u.name} <{u.email}>\n"))
    tree.add(root + f"{module}_app.py", (
        f"from {module}_models import {thing}\n\nITEMS = {{}}\n\n\ndef add_item(sku, qty):\n"
        f"    # TODO: validate sku format\n    ITEMS[sku] = {thing}(sku, qty)\n"
        "    return ITEMS[sku]\n\n\ndef total_stock():\n"
        "    return sum(i.qty for i in ITEMS.values())\n\n\n"
        "if __name__ == \"__main__\":\n    add_item(\"SKU-1\", 5)\n"
        "    print(total_stock())\n"))
    tree.add(root + f"{module}_models.py", (
        f"from dataclasses import dataclass\n\n\n@dataclass\nclass {thing}:\n"
        "    sku: str\n    qty: int\n    # TODO: add warehouse city\n"))
    tree.add(root + "requirements.txt", "fastapi==0.115.0\nuvicorn==0.30.6\npydantic==2.8.2\n")
    tree.add(root + ".gitignore", "__pycache__/\n*.pyc\n.env\n")
    tree.add(root + f"tests/test_{module}.py", (
        f"from {module}_app import add_item, total_stock\n\n\n"
        "def test_total():\n    add_item(\"A\", 2)\n"
        "    add_item(\"B\", 3)\n    assert total_stock() == 5\n"))


def _projects(tree: Tree, world: World, rng: random.Random, u: Person) -> list[str]:
    """The user's code projects; returns the services' folders (archives snapshot them)."""
    co = world.company(u.company_id).name
    services = rng.sample(SERVICES, rng.randint(1, 3))
    for name, module, about in services:
        _service(tree, co, u, name, module, about)
    pipeline = rng.choice(PIPELINES)
    script, config = rng.choice([("pipeline.py", "config.yaml"), ("run.py", "settings.yaml"),
                                 ("jobs.py", "pipeline.yml")])
    tree.add(f"projects/{pipeline}/{script}", (
        "import csv\n\n\ndef load(path):\n    with open(path) as f:\n"
        "        return list(csv.DictReader(f))\n\n\ndef revenue_by_city(rows):\n"
        "    out = {}\n    for r in rows:\n"
        "        out[r[\"city\"]] = out.get(r[\"city\"], 0) + float(r[\"revenue\"])\n"
        "    return out\n"))
    tree.add(f"projects/{pipeline}/{config}", (
        f"source: reports/sales.csv\nowner: {u.email}\n"
        f"schedule: \"0 {rng.randint(1, 6)} * * *\"\nnotify:\n"
        + "".join(f"  - {p.email}\n" for p in world.people[1:3])))
    return [f"projects/{name}" for name, _, _ in services]


def _notes(tree: Tree, world: World, rng: random.Random, u: Person,
           peers: list[Person]) -> None:
    places = [p for p in world.places if p.kind in ("restaurant", "cafe")]
    picks = rng.sample(places, rng.randint(3, 6))
    todo = ("TODO\n- renew passport\n"
            f"- call {peers[3].name} about the {world.company(peers[3].company_id).name} demo\n"
            f"- book dinner at {picks[0].name} ({picks[0].city})\n- pay electricity bill\n"
            "- back up photos\n- update resume\n")
    tree.add("notes/" + rng.choice(["todo.txt", "to-do.txt", "tasks.txt"]), todo,
             ("personal",))
    ideas = ("# Ideas\n\n- Dashboard of warehouse stock by city\n"
             f"- Ask {peers[4].name} about a joint talk at the {u.city} data meetup\n"
             "- Automate the monthly expenses report\n")
    tree.add("notes/" + rng.choice(["ideas.md", "brainstorm.md", "side_projects.md"]), ideas)
    reading = ("Reading list\n- Designing Data-Intensive Applications\n- The Pragmatic "
               "Programmer\n- Thinking, Fast and Slow\n- Designing Data-Intensive "
               "Applications\n- Atomic Habits\n- The Pragmatic Programmer\n")
    tree.add("notes/" + rng.choice(["reading_list.txt", "books.txt", "to_read.txt"]), reading)
    contacts = _csv("name,email,phone,company,city",
                    [[p.name, p.email, p.phone, world.company(p.company_id).name, p.city]
                     for p in peers[:rng.randint(6, 12)]])
    tree.add("notes/" + rng.choice(["contacts.csv", "address_book.csv", "people.csv"]),
             contacts)
    food = "Places to try\n" + "".join(f"- {p.name}, {p.address} ({p.cuisine or p.kind})\n"
                                        for p in picks)
    tree.add(f"notes/places_to_try_{slug(picks[0].city)}.txt", food)


REGIONS = ["emea", "dach", "nordics", "iberia", "benelux", "uk", "north_america", "apac",
           "online", "retail"]
QUARTERS = [(2025, 3), (2025, 4), (2026, 1), (2026, 2)]


def _reports(tree: Tree, world: World, rng: random.Random, peers: list[Person],
             projects: list[str]) -> None:
    region = rng.choice(REGIONS)
    n_rows = rng.randint(6, 12)  # reps per quarter
    for year, quarter in QUARTERS[-rng.randint(2, 4):]:
        rows = []
        for p in rng.sample(peers, n_rows):
            units = rng.randint(20, 400)
            rows.append([p.city, p.name, world.company(p.company_id).name, units,
                         round(units * rng.uniform(12, 60), 2)])
        tree.add(f"reports/sales_{region}_{year}_q{quarter}.csv",
                 _csv("city,rep,customer,units,revenue", rows), ("work", "sales"))
    month = rng.randrange(len(MONTHS))
    n_expenses = rng.randint(5, 10)
    vendors = rng.sample([p for p in world.places if p.kind in ("restaurant", "cafe", "store",
                                                                 "hotel")], n_expenses)
    cats = {"restaurant": "meals", "cafe": "meals", "store": "supplies", "hotel": "travel"}
    days = sorted(rng.sample(range(1, 29), n_expenses))
    tree.add(f"reports/expenses_{MONTHS[month]}_2026.csv", _csv(
        "date,category,vendor,amount",
        [[f"2026-{month + 1:02d}-{d:02d}", cats[v.kind], v.name, round(rng.uniform(8, 320), 2)]
         for d, v in zip(days, vendors, strict=True)]))
    hours = _csv("person,project,hours",
                 [[p.name, rng.choice([*projects, "support"]),
                   rng.randint(4, 40)] for p in peers[:rng.randint(3, 7)] for _ in range(2)])
    tree.add(f"reports/team_hours_w{rng.randint(10, 23):02d}.csv", hours)
    total = rng.randint(900, 4000) * 1000
    summary = (f"Annual summary 2025 (final, do not edit)\n\nRevenue: ${total:,}\n"
               f"Top customer: {world.companies[rng.randrange(20)].name}\n"
               f"Best region: {rng.choice(world.cities).name}\n"
               f"Prepared by {peers[5].name}\n")
    tree.add("reports/" + rng.choice(["summary_2025.txt", "annual_summary_2025.txt",
                                      "year_end_report_2025.txt", "results_fy2025.txt"]),
             summary, ("work",), locked=True)


def _photos(tree: Tree, world: World, rng: random.Random, peers: list[Person]) -> None:
    rows = []
    n = rng.randint(3, 9)
    numbers = sorted(rng.sample(range(1000, 10000), n))
    for i, number in enumerate(numbers):
        city = rng.choice(world.cities)
        who = rng.sample(peers, 2)
        name = f"IMG_{number}"
        taken = days_ago(world, 20 + (n - i) * rng.randint(8, 25), rng)
        rows.append([f"{name}.jpg", taken, city.name, " & ".join(p.name for p in who)])
        tree.add(f"photos/{name}.json", (
            f'{{\n  "file": "{name}.jpg",\n  "taken_at": "{taken}",\n  "city": "{city.name}",'
            f'\n  "lat": {city.lat},\n  "lon": {city.lon},\n  "people": ["{who[0].name}", '
            f'"{who[1].name}"],\n  "camera": "Pixel 8"\n}}\n'))
    tree.add("photos/" + rng.choice(["metadata.csv", "photo_index.csv", "album.csv"]),
             _csv("file,taken_at,city,people", rows), ("personal",))


def _downloads(tree: Tree, world: World, rng: random.Random, u: Person) -> None:
    for vendor in rng.sample(world.companies, rng.randint(1, 3)):
        amount = round(rng.uniform(90, 2400), 2)
        tree.add(f"downloads/invoice_{vendor.domain.split('.')[0]}_{rng.randint(1000, 9999)}"
                 ".txt", (f"INVOICE\nFrom: {vendor.name}, {vendor.city}\nTo: {u.name}\n"
                          f"Item: consulting hours\nAmount due: ${amount}\nDue: 2026-07-01\n"),
                 ("finance",))
    code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
    dest = rng.choice(world.cities)
    tree.add(f"downloads/booking_{code}.txt", (
        f"Booking confirmation {code}\nPassenger: {u.name}\nRoute: "
        f"{dest.airport} ({dest.name})\nStatus: confirmed\n"))
    tree.add("downloads/" + rng.choice(["terms_of_service.txt", "license_agreement.txt",
                                        "user_agreement.txt"]), (
        "Terms of service\n\n1. Use the software lawfully.\n2. No warranty is given.\n"
        "3. These terms are governed by the laws of the Netherlands.\n"))


def build(s: State, world: World, rng: random.Random) -> None:
    u = world.user
    home = f"/home/{u.username}"
    peers = list(world.people[1:])
    rng.shuffle(peers)
    tree = Tree()
    tree.add(".bashrc", "export EDITOR=vim\nalias ll='ls -l'\n")
    tree.add(rng.choice([".config/editor.json", ".config/code/settings.json"]),
             '{\n  "theme": "dark",\n  "tab_size": 4\n}\n')
    _documents(tree, world, rng, u, peers)
    services = _projects(tree, world, rng, u)
    _notes(tree, world, rng, u, peers)
    _reports(tree, world, rng, peers, [folder.split("/")[1] for folder in services])
    _photos(tree, world, rng, peers)
    _downloads(tree, world, rng, u)
    files = tree.files
    rows: dict[str, Row] = {}

    def add(path: str, kind: str, content: str | None, when: str, owner: str,
            locked: bool = False, tag_list: list[str] | None = None) -> None:
        parent, _, name = path.rpartition("/")
        rows[path] = {"path": path, "name": name or "/", "parent": (parent or "/") if name
                      else None, "type": kind, "content": content, "read_only": locked,
                      "owner": owner, "created_at": when, "modified_at": when,
                      "tags": tag_list or []}

    old = days_ago(world, 400)
    add("/", "directory", None, old, SYSTEM, True)
    add("/home", "directory", None, old, SYSTEM, True)
    add("/tmp", "directory", None, days_ago(world, 2), SYSTEM)
    add(home, "directory", None, days_ago(world, 300), u.username)
    add("/tmp/session.log", "file", "login ok\nsync started\nsync finished\n",
        days_ago(world, 2), u.username)
    dirs = set(TOP_DIRS)
    for rel in sorted(files):
        dirs.update(rel.rsplit("/", i)[0] for i in range(1, rel.count("/") + 1))
    for rel in sorted(dirs):
        add(f"{home}/{rel}", "directory", None, days_ago(world, 200 + rng.randint(0, 90)),
            u.username)
    # File times first, then each directory's modified time = its newest entry's.
    for rel in sorted(files):
        add(f"{home}/{rel}", "file", files[rel], days_ago(world, rng.randint(1, 150), rng),
            u.username, rel in tree.read_only, tree.tags.get(rel))
    for path in sorted(rows, key=len, reverse=True):
        row = rows[path]
        if row["parent"] and row["parent"] != "/" and row["parent"] in rows:
            parent = rows[row["parent"]]
            if row["modified_at"] > parent["modified_at"]:
                parent["modified_at"] = row["modified_at"]
    s.table("nodes", key="path", kind="file or directory",
            hint="use ls or find to see what exists").load([rows[p] for p in sorted(rows)])
    s.set_var("user", u.username)
    s.set_var("home", home)
    s.set_var("cwd", home)
    s.set_var("quota_bytes", QUOTA_BYTES)
    _archives(s, world, rng, home, rows, services)


def _archives(s: State, world: World, rng: random.Random, home: str, rows: dict[str, Row],
              services: list[str]) -> None:
    """Backups the user made earlier: some of photos, notes, documents and code snapshots."""
    def record(n: int, name: str, fmt: str, sources: list[str], days: int) -> Row:
        entries = []
        for src in sources:  # stored like create_archive does: relative to the source's parent
            base = src.rsplit("/", 1)[0] + "/"
            entries += [{"path": p[len(base):], "type": r["type"], "content": r["content"]}
                        for p, r in sorted(rows.items()) if p == src or p.startswith(src + "/")]
        total = sum(len(e["content"].encode()) for e in entries if e["type"] == "file")
        return {"archive_id": f"arc_{n:04d}", "name": name, "format": fmt,
                "created_at": days_ago(world, days), "sources": sources, "entries": entries,
                "total_bytes": total, "compressed_bytes": compressed_size(total, len(entries))}

    def dated(stem: str, days: int) -> str:
        return f"{stem}_{days_ago(world, days)[:10].replace('-', '')}"

    candidates = [("photos", "zip"), ("notes", "zip"), ("documents", "tar.gz"),
                  *((src, "tar.gz") for src in services)]
    picked = [c for c in candidates if rng.random() < 0.5] or [rng.choice(candidates)]
    archives = []
    for n, (src, fmt) in enumerate(picked, 1):
        days = rng.randint(10, 90)
        stem = (f"{src.rsplit('/', 1)[-1]}_v0.{rng.randint(1, 9)}" if src.startswith("projects")
                else dated(f"{src}_backup", days))
        archives.append(record(n, f"{stem}.{fmt}", fmt, [f"{home}/{src}"], days))
    s.table("archives", key="archive_id", kind="archive",
            hint="use list_archives to see archive ids").load(archives)
    s.set_var("__seq_arc", len(archives))


def compressed_size(total: int, n_entries: int) -> int:
    """A deterministic size estimate (real compressors differ across builds)."""
    return int(total * 0.45) + 64 * n_entries + 22

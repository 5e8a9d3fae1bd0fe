"""The initial tree of the filesystem server, built from the shared world.

Every seed gets the same layout (so tasks can name paths) with contents that vary: the people,
companies, cities and places of the world, and figures drawn from the domain's rng.
"""

from __future__ import annotations

import random

from servers.core.state import Row, State
from servers.core.world import Person, World, days_ago

SYSTEM = "root"
QUOTA_BYTES = 262_144  # 256 KiB: small enough that bulk copies can hit it


def _csv(header: str, rows: list[list[object]]) -> str:
    return "\n".join([header, *(",".join(str(v) for v in r) for r in rows)]) + "\n"


def _documents(world: World, rng: random.Random, u: Person, peers: list[Person]) -> dict:
    co = world.company(u.company_id)
    partner = next(c for c in world.companies if c.id != co.id)
    a, b, c = peers[0], peers[1], peers[2]
    fee = rng.randrange(18, 90) * 1000
    resume = (f"# {u.name}\n\n{u.title} at {co.name} ({u.city})\n{u.email} | {u.phone}\n\n"
              f"## Experience\n- {co.name}, {u.title} (2021-present)\n"
              f"  - Led the migration of reporting to a shared data platform\n"
              f"  - Mentored {rng.randint(2, 6)} junior colleagues\n"
              f"- {partner.name}, Analyst (2017-2021)\n\n## Skills\nPython, SQL, "
              "forecasting, stakeholder communication\n")
    meeting = (f"# Q2 planning meeting\nDate: {days_ago(world, 20)[:10]}\n"
               f"Attendees: {u.name}, {a.name}, {b.name}, {c.name}\n\n## Decisions\n"
               f"- {a.first_name} owns the {partner.name} renewal (deadline end of June)\n"
               f"- Budget for the {co.city} office fit-out approved: ${fee:,}\n"
               f"- {b.first_name} to circulate the hiring plan by Friday\n\n## Action items\n"
               f"- [ ] {u.first_name}: send the sales_q2 report to {c.name}\n"
               f"- [ ] {a.first_name}: book the offsite venue\n"
               f"- [x] {b.first_name}: close the TODO list from Q1\n")
    contract = (f"SERVICE AGREEMENT\n\nBetween {co.name} (\"Client\") and {partner.name} "
                f"(\"Provider\").\n\n1. Scope. Provider delivers analytics and {partner.industry} "
                "services as listed in Annex A.\n"
                f"2. Fees. Client pays ${fee:,} per year, invoiced quarterly.\n"
                "3. Term. Twelve months from signature, renewing unless cancelled with 60 days "
                f"notice.\n4. Contacts. Client: {u.name} <{u.email}>. Provider: {a.name} "
                f"<{a.email}>.\n\nSigned in {co.city}.\n")
    cover = (f"Dear {b.name},\n\nI am writing to apply for the {b.title} role at "
             f"{world.company(b.company_id).name}. As a {u.title} at {co.name} I have "
             "built forecasting tools used across the company.\n\nKind regards,\n"
             f"{u.name}\n")
    trip_from = next(x for x in world.cities if x.name == u.city)
    dest = rng.choice([x for x in world.cities if x.name != u.city])
    hotel = next((p for p in world.places if p.city == dest.name and p.kind == "hotel"), None)
    itinerary = (f"Trip to {dest.name}, {dest.country}\n\nOutbound: {trip_from.airport} -> "
                 f"{dest.airport}, flight FS{rng.randint(100, 999)}, 08:40\n"
                 f"Return:   {dest.airport} -> {trip_from.airport}, flight "
                 f"FS{rng.randint(100, 999)}, 18:15\n"
                 f"Hotel: {hotel.name if hotel else 'TBD'}, "
                 f"{hotel.address if hotel else dest.name}\n"
                 f"Meeting: {c.name} ({world.company(c.company_id).name})\n")
    return {"documents/resume.md": resume, "documents/meeting_notes_q2.md": meeting,
            f"documents/contract_{partner.domain.split('.')[0]}.txt": contract,
            "documents/cover_letter.txt": cover, "documents/travel_itinerary.txt": itinerary}


def _projects(world: World, rng: random.Random, u: Person) -> dict:
    co = world.company(u.company_id)
    api = "projects/inventory-api/"
    return {
        api + "README.md": (f"# inventory-api\n\nStock levels for {co.name} warehouses.\n\n"
                            "## Run\n    pip install -r requirements.txt\n    python app.py\n\n"
                            f"Maintainer: {u.name} <{u.email}>\n"),
        api + "app.py": ("from models import Item\n\nITEMS = {}\n\n\ndef add_item(sku, qty):\n"
                         "    # TODO: validate sku format\n    ITEMS[sku] = Item(sku, qty)\n"
                         "    return ITEMS[sku]\n\n\ndef total_stock():\n"
                         "    return sum(i.qty for i in ITEMS.values())\n\n\n"
                         "if __name__ == \"__main__\":\n    add_item(\"SKU-1\", 5)\n"
                         "    print(total_stock())\n"),
        api + "models.py": ("from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n"
                            "    sku: str\n    qty: int\n    # TODO: add warehouse city\n"),
        api + "requirements.txt": "fastapi==0.115.0\nuvicorn==0.30.6\npydantic==2.8.2\n",
        api + ".gitignore": "__pycache__/\n*.pyc\n.env\n",
        api + "tests/test_app.py": ("from app import add_item, total_stock\n\n\n"
                                    "def test_total():\n    add_item(\"A\", 2)\n"
                                    "    add_item(\"B\", 3)\n    assert total_stock() == 5\n"),
        "projects/data-pipeline/pipeline.py": (
            "import csv\n\n\ndef load(path):\n    with open(path) as f:\n"
            "        return list(csv.DictReader(f))\n\n\ndef revenue_by_city(rows):\n"
            "    out = {}\n    for r in rows:\n"
            "        out[r[\"city\"]] = out.get(r[\"city\"], 0) + float(r[\"revenue\"])\n"
            "    return out\n"),
        "projects/data-pipeline/config.yaml": (
            f"source: reports/sales_q{rng.randint(1, 2)}.csv\nowner: {u.email}\n"
            f"schedule: \"0 {rng.randint(1, 6)} * * *\"\nnotify:\n"
            + "".join(f"  - {p.email}\n" for p in world.people[1:3])),
    }


def _notes(world: World, rng: random.Random, u: Person, peers: list[Person]) -> dict:
    places = [p for p in world.places if p.kind in ("restaurant", "cafe")]
    picks = rng.sample(places, 4)
    todo = ("TODO\n- renew passport\n"
            f"- call {peers[3].name} about the {world.company(peers[3].company_id).name} demo\n"
            f"- book dinner at {picks[0].name} ({picks[0].city})\n- pay electricity bill\n"
            "- back up photos\n- update resume\n")
    ideas = ("# Ideas\n\n- Dashboard of warehouse stock by city\n"
             f"- Ask {peers[4].name} about a joint talk at the {u.city} data meetup\n"
             "- Automate the monthly expenses report\n")
    reading = ("Reading list\n- Designing Data-Intensive Applications\n- The Pragmatic "
               "Programmer\n- Thinking, Fast and Slow\n- Designing Data-Intensive "
               "Applications\n- Atomic Habits\n- The Pragmatic Programmer\n")
    contacts = _csv("name,email,phone,company,city",
                    [[p.name, p.email, p.phone, world.company(p.company_id).name, p.city]
                     for p in peers[:10]])
    food = "Places to try\n" + "".join(f"- {p.name}, {p.address} ({p.cuisine or p.kind})\n"
                                        for p in picks)
    return {"notes/todo.txt": todo, "notes/ideas.md": ideas, "notes/reading_list.txt": reading,
            "notes/contacts.csv": contacts, "notes/restaurants.txt": food}


def _reports(world: World, rng: random.Random, peers: list[Person]) -> dict:
    def sales() -> str:
        rows = []
        for p in rng.sample(peers, 8):
            units = rng.randint(20, 400)
            rows.append([p.city, p.name, world.company(p.company_id).name, units,
                         round(units * rng.uniform(12, 60), 2)])
        return _csv("city,rep,customer,units,revenue", rows)

    vendors = rng.sample([p for p in world.places if p.kind in ("restaurant", "cafe", "store",
                                                                 "hotel")], 8)
    cats = {"restaurant": "meals", "cafe": "meals", "store": "supplies", "hotel": "travel"}
    expenses = _csv("date,category,vendor,amount",
                    [[f"2026-05-{d:02d}", cats[v.kind], v.name, round(rng.uniform(8, 320), 2)]
                     for d, v in zip(sorted(rng.sample(range(1, 31), 8)), vendors, strict=True)])
    hours = _csv("person,project,hours",
                 [[p.name, rng.choice(["inventory-api", "data-pipeline", "support"]),
                   rng.randint(4, 40)] for p in peers[:6] for _ in range(2)])
    total = rng.randint(900, 4000) * 1000
    summary = (f"Annual summary 2025 (final, do not edit)\n\nRevenue: ${total:,}\n"
               f"Top customer: {world.companies[rng.randrange(20)].name}\n"
               f"Best region: {rng.choice(world.cities).name}\n"
               f"Prepared by {peers[5].name}\n")
    return {"reports/sales_q1.csv": sales(), "reports/sales_q2.csv": sales(),
            "reports/expenses_may.csv": expenses, "reports/team_hours.csv": hours,
            "reports/summary_2025.txt": summary}


def _photos(world: World, rng: random.Random, peers: list[Person]) -> dict:
    out, rows = {}, []
    for i in range(4):
        city = rng.choice(world.cities)
        who = rng.sample(peers, 2)
        name = f"IMG_{2041 + i}"
        taken = days_ago(world, 120 - 25 * i, rng)
        rows.append([f"{name}.jpg", taken, city.name, " & ".join(p.name for p in who)])
        out[f"photos/{name}.json"] = (
            f'{{\n  "file": "{name}.jpg",\n  "taken_at": "{taken}",\n  "city": "{city.name}",'
            f'\n  "lat": {city.lat},\n  "lon": {city.lon},\n  "people": ["{who[0].name}", '
            f'"{who[1].name}"],\n  "camera": "Pixel 8"\n}}\n')
    out["photos/metadata.csv"] = _csv("file,taken_at,city,people", rows)
    return out


def _downloads(world: World, rng: random.Random, u: Person) -> dict:
    vendor = rng.choice(world.companies)
    amount = round(rng.uniform(90, 2400), 2)
    code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
    dest = rng.choice(world.cities)
    return {
        f"downloads/invoice_{vendor.domain.split('.')[0]}_{rng.randint(1000, 9999)}.txt": (
            f"INVOICE\nFrom: {vendor.name}, {vendor.city}\nTo: {u.name}\n"
            f"Item: consulting hours\nAmount due: ${amount}\nDue: 2026-07-01\n"),
        f"downloads/booking_{code}.txt": (
            f"Booking confirmation {code}\nPassenger: {u.name}\nRoute: "
            f"{dest.airport} ({dest.name})\nStatus: confirmed\n"),
        "downloads/terms_of_service.txt": (
            "Terms of service\n\n1. Use the software lawfully.\n2. No warranty is given.\n"
            "3. These terms are governed by the laws of the Netherlands.\n"),
    }


def build(s: State, world: World, rng: random.Random) -> None:
    u = world.user
    home = f"/home/{u.username}"
    peers = list(world.people[1:])
    rng.shuffle(peers)
    files = {".bashrc": "export EDITOR=vim\nalias ll='ls -l'\n",
             ".config/editor.json": '{\n  "theme": "dark",\n  "tab_size": 4\n}\n',
             **_documents(world, rng, u, peers), **_projects(world, rng, u),
             **_notes(world, rng, u, peers), **_reports(world, rng, peers),
             **_photos(world, rng, peers), **_downloads(world, rng, u)}
    read_only = {"reports/summary_2025.txt"} | {k for k in files if "contract_" in k}
    tags = {"documents/resume.md": ["career"], "reports/sales_q1.csv": ["work", "sales"],
            "reports/sales_q2.csv": ["work", "sales"], "reports/summary_2025.txt": ["work"],
            "notes/todo.txt": ["personal"], "photos/metadata.csv": ["personal"]}
    tags.update({k: ["work", "legal"] for k in files if "contract_" in k})
    tags.update({k: ["finance"] for k in files if k.startswith("downloads/invoice_")})
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
    dirs = {"downloads", "projects/inventory-api/tests", "photos"}
    for rel in sorted(files):
        dirs.update(rel.rsplit("/", i)[0] for i in range(1, rel.count("/") + 1))
    for rel in sorted(dirs):
        add(f"{home}/{rel}", "directory", None, days_ago(world, 200 + rng.randint(0, 90)),
            u.username)
    # File times first, then each directory's modified time = its newest entry's.
    for rel in sorted(files):
        add(f"{home}/{rel}", "file", files[rel], days_ago(world, rng.randint(1, 150), rng),
            u.username, rel in read_only, tags.get(rel))
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
    _archives(s, world, home, rows)


def _archives(s: State, world: World, home: str, rows: dict[str, Row]) -> None:
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

    s.table("archives", key="archive_id", kind="archive",
            hint="use list_archives to see archive ids").load([
                record(1, "photos_backup.zip", "zip", [f"{home}/photos"], 30),
                record(2, "inventory-api_v0.1.tar.gz", "tar.gz", [f"{home}/projects/inventory-api"],
                       45)])
    s.set_var("__seq_arc", 2)


def compressed_size(total: int, n_entries: int) -> int:
    """A deterministic size estimate (real compressors differ across builds)."""
    return int(total * 0.45) + 64 * n_entries + 22

"""filesystem: a virtual in-memory file tree (never the host disk) for the world's user.

Directories and text files under /home/<username>, a current directory, read-only flags,
tags and an archive store. Paths are absolute or relative to the cwd; nothing may climb
above '/'. Modules: seed (initial tree), common (paths, helpers), nav, files, text, extras.
"""

from __future__ import annotations

import importlib

from servers.filesystem.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("nav", "files", "text", "extras"):
    importlib.import_module(f"servers.filesystem.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0); paths are relative to the
# home directory (the initial cwd). File names vary by seed: these are seed 0's.
EXAMPLES: list[tuple[str, dict]] = [
    ("pwd", {}),
    ("ls", {"path": "~/reports", "long": True}),
    ("tree", {"path": "projects", "max_depth": 2}),
    ("find", {"path": "~", "name": "*.csv", "type": "file"}),
    ("stat", {"path": "reports/sales_retail_2025_q4.csv"}),
    ("file_exists", {"path": "notes/tasks.txt"}),
    ("get_size", {"path": "photos"}),
    ("du", {"path": "~"}),
    ("get_disk_usage", {}),
    ("list_recent", {"limit": 5}),
    ("cat", {"path": "notes/tasks.txt"}),
    ("head", {"path": "reports/sales_retail_2025_q4.csv", "lines": 3}),
    ("tail", {"path": "reports/sales_retail_2026_q2.csv", "lines": 2}),
    ("grep", {"pattern": "todo", "path": "projects", "recursive": True, "ignore_case": True}),
    ("wc", {"path": "documents/cv_oscar_ito.md"}),
    ("sort", {"path": "reports/sales_retail_2025_q4.csv", "column": 5, "numeric": True,
              "header": True, "reverse": True}),
    ("uniq", {"path": "notes/reading_list.txt", "all_duplicates": True}),
    ("search_content", {"query": "inventory", "path": "~"}),
    ("count_lines", {"path": "reports", "skip_blank": True}),
    ("checksum", {"path": "reports/sales_retail_2025_q4.csv"}),
    ("cut_columns", {"path": "reports/sales_retail_2025_q4.csv", "columns": ["rep", "revenue"]}),
    ("list_tags", {}),
    ("search_by_tag", {"tag": "work"}),
    ("list_archives", {}),
    ("mkdir", {"path": "archive/2026", "parents": True}),
    ("cp", {"source": "reports/sales_retail_2025_q4.csv", "destination": "archive/2026"}),
    ("diff", {"path": "reports/sales_retail_2025_q4.csv",
              "other_path": "archive/2026/sales_retail_2025_q4.csv"}),
    ("write_file", {"path": "notes/meeting_prep.md", "content": "# Prep\n- review Q2 sales\n"}),
    ("append_file", {"path": "notes/meeting_prep.md", "content": "- bring the contract"}),
    ("edit_replace", {"path": "notes/meeting_prep.md", "find": "Q2", "replace": "Q3"}),
    ("touch", {"path": "notes/scratch.txt"}),
    ("rename", {"path": "notes/scratch.txt", "new_name": "scratch_old.txt"}),
    ("mv", {"source": "notes/scratch_old.txt", "destination": "archive"}),
    ("rm", {"path": "archive/scratch_old.txt"}),
    ("mkdir", {"path": "empty_folder"}),
    ("rmdir", {"path": "empty_folder"}),
    ("tag_file", {"path": "notes/meeting_prep.md", "tag": "work"}),
    ("chmod", {"path": "notes/meeting_prep.md", "read_only": True}),
    ("create_archive", {"paths": ["reports", "notes/tasks.txt"], "name": "reports_backup"}),
    ("extract_archive", {"archive_id": "arc_0003", "destination": "archive/2026"}),
    ("cd", {"path": "projects/crm-sync"}),
]

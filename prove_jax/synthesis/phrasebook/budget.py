"""How users ask for budget's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_expense": (
        "log {amount} spent at {merchant} under {category_id}[ on {date}]",
        "record an expense of {amount} at {merchant} in {category_id}"
        "[, paid by {payment_method}]",
        "add {amount} at {merchant} to {category_id}[ with the note {note}]",
        "track a purchase from {merchant}[ for {amount}] as {category_id}[ dated {date}]",
    ),
    "contribute_to_savings_goal": (
        "{action} {amount} for {goal_id}",  # deposit / withdraw: verbs, never "a withdraw"
        "put {amount} toward {goal_id}",
        "for {goal_id}, {action} {amount}",
    ),
    "create_budget": (
        "set a budget of {limit} for {category_id} in {month}",
        "cap {category_id} at {limit} for {month}[ and warn me at {alert_threshold} percent]",
        "create a budget for {category_id} in {month} with a limit of {limit}",
        "limit my spending on {category_id} to {limit}[ in {month}]",
    ),
    "delete_budget": (
        "delete {budget_id}",
        "remove {budget_id}, I don't need it anymore",
        "get rid of {budget_id}",
        "drop {budget_id} but keep the expenses",
    ),
    "delete_expense": (
        "delete {expense_id}, I logged it by mistake",
        "remove {expense_id}",
        "take {expense_id} off my records",
        "erase {expense_id} from my expenses",
    ),
    "get_spending_summary": (
        "show me how my spending broke down[ in {month}]",
        "give me a spending summary[ for {month}]",
        "tell me where my money went[ in {month}] compared with my budgets",
        "break down my spending by category[ for {month}]",
    ),
    "list_budgets": (
        "show me my budgets[ for {month}]",
        "list the budgets[ for {category_id}][ that are {status}]",
        "check how my budgets are doing[ in {month}][ (just the first {limit})]",
        "tell me which budgets are {status}[ in {month}]",
    ),
    "list_categories": (
        "show me my spending categories[ in the {group} group]",
        "list the categories[ under {group}]",
        "tell me which budget categories exist",
    ),
    "list_expenses": (
        "show me my expenses[ for {month}]",
        "list what I spent[ at {merchant}][ from {start_date}][ to {end_date}]",
        "find expenses[ in {category_id}][ over {min_amount}][ under {max_amount}]",
        "pull up my spending[ since {start_date}][ until {end_date}][ (just the first {limit})]",
    ),
    "list_savings_goals": (
        "show me my savings goals",
        "list my[ {status}] savings goals with their progress",
        "check how close I am to my savings targets",
        "tell me how much I need to save each month for my goals[ that are {status}]",
    ),
    "update_budget_limit": (
        "change the limit on {budget_id}[ to {limit}]",
        "set the limit of {budget_id} to {limit}[ and the alert to {alert_threshold} percent]",
        "adjust {budget_id} to a limit of {limit}",
        "update {budget_id} so it allows {limit}[, warning me at {alert_threshold} percent]",
    ),
    "update_expense": (
        "fix {expense_id}[ so the amount is {amount}]",
        "correct {expense_id}[, merchant {merchant}][, date {date}]",
        "change {expense_id}[ to {amount}][ at {merchant}][ on {date}]",
        "update {expense_id}[ and move it to {category_id}][ with the note {note}]",
        "edit {expense_id}[ so it was paid by {payment_method}]",
    ),
}

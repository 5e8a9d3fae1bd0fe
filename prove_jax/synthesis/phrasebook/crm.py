"""How users ask for crm's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "create_account": (
        "add a new account for {name} ({domain}), a {industry} company based in {city}",
        "create an account called {name} with the domain {domain}, industry {industry},"
        " headquartered in {city}[, {country}][ with {employees} employees]",
        "set up {name} in the CRM as a {industry} company in {city} with the website {domain}"
        "[ and mark it as a {type}]",
        "register the company {name}[ at {domain}][ in the {industry} industry][ out of {city}]"
        "[ with annual revenue of {annual_revenue}][ owned by {owner_id}]",
    ),
    "create_contact": (
        "add {first_name} {last_name} ({email}) as a contact at {account_id}[, title {title}]",
        "create a contact for {first_name} {last_name} at {account_id} with the email {email}"
        "[ and phone {phone}]",
        "save {first_name} {last_name} from {account_id} to the CRM, email {email}"
        "[, lifecycle stage {lifecycle_stage}]",
        "put {first_name} {last_name} in as a new contact[ working at {account_id}]"
        "[, reachable at {email}][, whose job title is {title}][, owned by {owner_id}]",
    ),
    "create_deal": (
        "open a deal called {name} with {account_id} worth {amount}, closing {close_date}",
        "create a new opportunity on {account_id}: {name} for {amount},"
        " expected to close by {close_date}[ with the next step {next_step}]",
        "log a {amount} deal named {name} for {account_id}[ that should close on {close_date}]"
        "[ starting at the {stage} stage]",
        "start tracking a deal with {account_id}[ named {name}][ for {amount}]"
        "[ closing {close_date}][ with {primary_contact_id} as the buyer]",
    ),
    "create_task": (
        "create a task {title} due {due_date}[ and assign it to {assignee_id}]",
        "add a follow-up task titled {title} due on {due_date}[ for {deal_id}]"
        "[ with {priority} priority]",
        "set up a to-do {title}[ due {due_date}][ about {contact_id}][ with the notes {notes}]",
        "remind us to do {title} by {due_date}[, with {assignee_id} on it]",
    ),
    "get_contact": (
        "pull up {contact_id} with their open deals and tasks",
        "what's going on with {contact_id}",
        "look up {contact_id} in the CRM",
        "show me everything we have on {contact_id}",
    ),
    "get_deal": (
        "show me {deal_id} with its stage history",
        "how is {deal_id} going",
        "pull up the details of {deal_id}",
        "what's the latest on {deal_id}",
    ),
    "get_pipeline_summary": (
        "give me a pipeline summary[ for {owner_id}]",
        "how does the pipeline look[ for deals closing between {close_date_from} and"
        " {close_date_to}]",
        "break down the sales pipeline by stage and rep[ for {owner_id}]",
        "what's our win rate and pipeline by stage[ from {close_date_from}]"
        "[ through {close_date_to}]",
    ),
    "list_deals": (
        "list the deals[ in stage {stage}][ with {account_id}]",
        "show me the deals[ owned by {owner_id}][ worth at least {min_amount}]",
        "which deals do we have[ closing between {close_date_from} and {close_date_to}]"
        "[, sorted by {sort}]",
        "find deals[ where {contact_id} is the main contact][ closing by {close_date_to}]"
        "[ (just the first {limit})]",
    ),
    "list_tasks": (
        "show me the tasks[ that are {status}][ assigned to {assignee_id}]",
        "what's on the to-do list[ due by {due_before}]",
        "list the follow-ups[ for {deal_id}][ about {contact_id}][ (first {limit})]",
        "check which tasks there are[ with status {status}][ due on or before {due_before}]",
    ),
    "log_activity": (
        "log a {kind}[ with {contact_id}] about {subject}[ on {deal_id}]",
        "record a {kind} titled {subject}[ against {deal_id}][ that lasted {duration_minutes}"
        " minutes]",
        "note down that I had a {kind}[ with {contact_id}] on the subject {subject}"
        "[ on {occurred_on}][: {body}]",
        "add a {kind} to the activity log, subject {subject}[, outcome {outcome}]"
        "[, details {body}]",
    ),
    "search_accounts": (
        "find accounts[ matching {query}]",
        "search for companies[ in {city}][ in the {industry} industry]",
        "list our accounts[ of type {type}][ based in {city}][ (at most {limit})]",
        "check whether we have an account[ like {query}][ in {industry}]",
    ),
    "search_contacts": (
        "find contacts[ matching {query}]",
        "search the CRM for people[ like {query}][ at {account_id}]",
        "tell me who our contacts are[ at {account_id}][ in the {lifecycle_stage} stage]",
        "list the contacts[ owned by {owner_id}][ at lifecycle stage {lifecycle_stage}]"
        "[ (first {limit})]",
    ),
    "update_contact": (
        "update the details of {contact_id}[ with the title {title}]"
        "[, setting the phone number to {phone}]",
        "edit {contact_id}[, setting the lifecycle stage to {lifecycle_stage}]"
        "[, handing them to {owner_id}]",
        "fix the record for {contact_id}[ so the phone is {phone}][, with the job title {title}]",
        "change {contact_id} in the CRM[: stage {lifecycle_stage}][, owned by {owner_id}]",
    ),
    "update_deal": (
        "update {deal_id}[ so it's worth {amount}][, closing on {close_date}]",
        "edit {deal_id}[: rename it {name}][, move the close date to {close_date}]",
        "change {deal_id}[, setting the next step to {next_step}][, reassigning it to"
        " {owner_id}]",
        "revise {deal_id}[ with {primary_contact_id} as the main contact][, amount {amount}]",
    ),
    "update_deal_stage": (
        "move {deal_id} to {stage}",
        "set {deal_id} to the {stage} stage[ because of {lost_reason}]",
        "change the stage of {deal_id}[ to {stage}][, lost reason {lost_reason}]",
        "mark {deal_id} as {stage}[ (lost due to {lost_reason})]",
    ),
    "update_task": (
        "update {task_id}[ so it's due {due_date}][ with {priority} priority]"
        "[, marked {status}]",
        "change {task_id}[: status {status}][, due {due_date}]",
        "edit {task_id}[ and hand it to {assignee_id}][ with the notes {notes}]",
        "set {task_id} to {status}",
    ),
}

"""How users ask for banking's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_payee": (
        "add {name} as a payee with routing number {routing_number} and account number "
        "{account_number}[, nicknamed {nickname}]",
        "save the bank details for {name}: routing {routing_number}, account "
        "{account_number}[, email {email}]",
        "set up {name} as someone I can pay[, routing number {routing_number}]"
        "[, account number {account_number}][, filed under {category}]",
        "create a payee for {name}[ as a {kind}] using routing number {routing_number} "
        "and account number {account_number}",
    ),
    "cancel_scheduled_transfer": (
        "cancel {scheduled_transfer_id}",
        "stop {scheduled_transfer_id} from running again",
        "call off {scheduled_transfer_id} and all its future runs",
        "turn off {scheduled_transfer_id}, I don't need it anymore",
    ),
    "dispute_transaction": (
        "dispute {transaction_id}[ because of {reason}]",
        "file a dispute on {transaction_id} with the reason {reason}[, saying {details}]",
        "challenge {transaction_id}[ as {reason}][ and explain that {details}]",
        "report {transaction_id} as a bad charge[, giving the reason {reason}][ and add {details}]",
    ),
    "freeze_card": (
        "freeze {card_id}[ with the reason {reason}]",
        "put a freeze on {card_id}[ because {reason}]",
        "lock {card_id} so no new purchases go through",
        "block {card_id} for now[, the reason being {reason}]",
    ),
    "get_account": (
        "show me the balance of {account_id}",
        "pull up {account_id} with its latest transactions",
        "check how much is in {account_id}",
        "give me an overview of {account_id}",
    ),
    "get_transaction": (
        "show me the details of {transaction_id}",
        "look up {transaction_id}",
        "tell me more about {transaction_id}",
        "pull up everything on {transaction_id}",
    ),
    "list_accounts": (
        "show me all my accounts[ of type {type}]",
        "list my bank accounts and their balances",
        "give me my[ {type}] accounts with their balances",
        "tell me what accounts I have"
        "[, {include_closed?closed ones included|leaving out closed ones}]",
    ),
    "list_cards": (
        "show me all my cards",
        "list the cards[ on {account_id}][ that are {status}]",
        "tell me which of my cards are {status}",
        "check the status of my debit and credit cards[ linked to {account_id}]",
    ),
    "list_disputes": (
        "show me my card disputes[ that are {status}]",
        "list the disputes I've filed[ on {account_id}]",
        "check how my disputes are going[ (only {status} ones)]",
    ),
    "list_payees": (
        "show me my saved payees[ matching {query}]",
        "list the people and billers I can pay[ (just the first {limit})]",
        "find payees called {query}[ that are a {kind}]",
        "look up who I have saved as payees[, only the {kind} ones]",
    ),
    "list_scheduled_transfers": (
        "show me my scheduled transfers[ that are {status}]",
        "list my upcoming and recurring payments[ involving {account_id}]",
        "tell me what transfers are set up[ for {account_id}]",
        "check which {status} transfers I have scheduled",
    ),
    "list_transactions": (
        "show me my recent transactions[ on {account_id}]",
        "list what I spent[ on {category}][ from {start_date}][ through {end_date}]",
        "pull up my transactions[ from {start_date}][ to {end_date}][ in {account_id}]",
        "find charges[ over {min_amount}][ under {max_amount}][ on {account_id}]",
        "show me the {type} transactions[ on {account_id}][ since {start_date}]",
        "list the {direction} transactions[ in {category}][ (just the first {limit})]",
    ),
    "pay_payee": (
        "pay {payee_id}[ the sum of {amount}] from {from_account_id}[ with the memo {memo}]",
        "send {amount} to {payee_id} out of {from_account_id}",
        "use {from_account_id} to pay[ {amount} to] {payee_id}[ and note it as {memo}]",
        "settle up with {payee_id} for {amount} from {from_account_id}",
    ),
    "schedule_transfer": (
        "schedule {amount} from {from_account_id} to {to_account_id} starting {start_date}"
        "[, repeating {frequency}]",
        "set up a[ {frequency}] transfer of {amount} from {from_account_id}[ to {payee_id}]"
        "[ beginning {start_date}][ until {end_date}]",
        "arrange for {amount} to go from {from_account_id}[ to {payee_id}][ to {to_account_id}]"
        " on {start_date}[ with the memo {memo}]",
        "plan a payment of {amount} out of {from_account_id}[ into {to_account_id}]"
        "[ first running {start_date}][, repeating {frequency}]",
    ),
    "search_transactions": (
        "search my transactions for {query}[ on {account_id}]",
        "find charges from {query}[ in {account_id}]",
        "look for transactions mentioning {query}[ (just the first {limit})]",
        "show me everything I've paid at {query}",
    ),
    "transfer_between_accounts": (
        "move {amount} from {from_account_id} to {to_account_id}",
        "transfer[ the amount of {amount}] from {from_account_id} to {to_account_id}"
        "[ with the note {memo}]",
        "put {amount} into {to_account_id} from {from_account_id}",
        "shift {amount} out of {from_account_id} and into {to_account_id}[, memo {memo}]",
    ),
    "unfreeze_card": (
        "unfreeze {card_id}",
        "reactivate {card_id} so I can use it again",
        "lift the freeze on {card_id}",
        "unlock {card_id}",
    ),
}

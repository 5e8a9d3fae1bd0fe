"""How users ask for payments's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "cancel_request": (
        "cancel {request_id}",
        "take back {request_id} so they can't pay it",
        "withdraw {request_id}",
        "call off {request_id}, they don't owe me anymore",
    ),
    "get_payment": (
        "show me the details of {payment_id}",
        "look up {payment_id}",
        "tell me what happened with {payment_id}",
    ),
    "get_wallet": (
        "show me my wallet balance",
        "tell me what payment methods I have linked",
        "check my wallet and my default payment method",
    ),
    "list_payment_requests": (
        "show me my payment requests[ that are {status}]",
        "list the {direction} requests[ that are {status}]",
        "check for money requests[ ({direction})][ with status {status}]",
        "tell me which requests are still {status}",
    ),
    "list_payments": (
        "show me my recent payments[ with {contact_id}]",
        "list my payments[, the {direction} ones][ that are {status}]",
        "pull up my payment history[ with {contact_id}][ (just the first {limit})]",
        "find my {status} payments[ involving {contact_id}]",
    ),
    "refund_payment": (
        "refund {payment_id}",
        "send back the money from {payment_id}",
        "return {payment_id} to whoever sent it",
        "give a refund for {payment_id}",
    ),
    "request_payment": (
        "ask {contact_id} for {amount} for {note}",
        "request {amount} from {contact_id} with the note {note}",
        "send {contact_id} a payment request[ for {amount}][ saying {note}]",
        "get {contact_id} to pay me {amount}[ for {note}]",
    ),
    "respond_to_request": (
        "{action} {request_id}[ using {method_id}]",
        "answer {request_id}: {action} it[, paying from {method_id}]",
        "deal with {request_id}, I want to {action} it",
        "go ahead and {action} {request_id}[ with {method_id}]",
    ),
    "search_contacts": (
        "find {query} in my contacts",
        "search my contacts for {query}[ (just the first {limit})]",
        "look for anyone named {query}",
        "look up the contact {query}",
    ),
    "send_payment": (
        "send {amount} to {contact_id} for {note}",
        "pay {contact_id}[ the amount of {amount}] with the note {note}[ using {method_id}]",
        "transfer {amount} to {contact_id}[ from {method_id}] and add the note {note}",
        "shoot {amount} over to {contact_id}[ with the message {note}]",
    ),
}

"""Phrase tables of the template verbalizer: personas, openers, connectors, system prompts.
Generic over every tool: tool intents come from the tool's own description and name."""

from __future__ import annotations

PERSONAS = (
    "a busy parent of two", "a freelance graphic designer", "a retired teacher",
    "a graduate student", "a small-business owner", "a nurse working night shifts",
    "a software engineer", "a sales manager who travels a lot", "a first-time home buyer",
    "a restaurant owner", "an amateur investor", "a volunteer coordinator",
    "a project manager", "a photographer", "a personal trainer", "an accountant",
)
FIRST_OPENERS = ("", "", "", "Hi! ", "Hello. ", "Hey, ", "Hi there. ", "Good morning! ")
PERSONA_LINES = ("I'm {persona}. ", "Quick context: I'm {persona}. ", "As {persona}, ")
FOLLOW_OPENERS = ("Thanks. Now ", "Great, next ", "Perfect. Also, ", "One more thing: ",
                  "OK. Now ", "Thanks! Next, ", "Good. Then ")
ONE_STEP = ("{s}.", "Could you {s}?", "I'd like you to {s}.", "Please {s}.", "Can you {s}?",
            "I need you to {s}.")
MANY_STEPS = ("Please {s1}, then {rest}.", "First {s1}. After that, {rest}.",
              "Could you {s1} and then {rest}?", "I need a few things: {s1}; then {rest}.",
              "Let's do this in order: {s1}, and next {rest}.")
CONNECTORS = (", then ", ", and after that ", "; once that's done, ", ", and then ")
# Words a tool description may start with that already make it a request ("list ...").
VERBS = frozenset((
    "accept", "add", "append", "apply", "approve", "archive", "ask", "assign", "book", "cancel",
    "change", "check", "checkout", "clear", "close", "compare", "compute", "confirm", "contribute",
    "copy", "count", "create", "decline", "delete", "disable", "dispute", "download", "edit",
    "enable", "end", "estimate", "export", "extract", "find", "follow", "forward", "freeze",
    "get", "give", "hide", "invite", "join", "leave", "like", "list", "lock", "log", "look",
    "make", "mark", "merge", "move", "mute", "open", "order", "pack", "pause", "pay", "pin",
    "place", "plan", "play", "post", "print", "read", "rebook", "record", "redeem", "refund",
    "reject", "remove", "rename", "reorder", "reply", "report", "repost", "request", "reserve",
    "reset", "resolve", "respond", "restore", "resume", "return", "save", "schedule", "search",
    "see", "select", "send", "set", "share", "show", "sort", "start", "stop", "submit",
    "subscribe", "switch", "tag", "take", "track", "transfer", "translate", "turn", "unblock",
    "undo", "unfollow", "unfreeze", "unlike", "unlock", "unmute", "update", "upload", "view",
    "vote", "watch", "withdraw", "write"))
SUPPLY = ("Sorry, I forgot: the {arg} is {value}.", "Oh right, use {value} for the {arg}.",
          "The {arg} should be {value}.", "Make the {arg} {value}, please.",
          "Good question. The {arg} is {value}.")
# A withheld value given back with its own link word: "Oh right, copying 'ana@x.com'."
SUPPLY_CLAUSE = ("Oh right, {clause}.", "Ah, {clause}, please.", "Good question: {clause}.",
                 "Sorry, I should have said: {clause}.")
SUPPLY_ENTITY = ("Sorry, I meant {thing}.", "Oh right, it's {thing}.", "Use {thing}, please.",
                 "Good question: {thing}.", "I forgot to say: {thing}.")
INSIST = ("Are you sure there's no way to do that?", "Please, I really need that done today.",
          "Can you try anyway? It's important.", "Hmm, is there really no tool for that?")
# "the transaction from before" after a list of them reads as a riddle (a reading check)
BACK = ("that {noun}", "the {noun} you just found", "that same {noun}")
BACK_MADE = ("that {noun}", "that same {noun}")  # a write's record was not "found"
SYSTEM = (
    "You are a helpful assistant with access to tools for {services}. Today is {today}. "
    "Use the tools to carry out the user's requests. If a request is missing a detail you "
    "need, ask for it; if no tool can do what is asked, say so.",
    "You are an assistant that can act on the user's {services} accounts through tools. The "
    "current date is {today}. Call tools when they are needed, ask when something required "
    "is missing, and explain when a request cannot be done with the tools you have.",
    "Today is {today}. You help the user with {services} using the available tools. Prefer "
    "looking things up over guessing; ask a clarifying question when a required value is "
    "unknown; never pretend to have done something no tool can do.",
)
# Requests no server of this library serves: the unsatisfiable variant's fallback when every
# server is part of the task.
OUT_OF_SCOPE = (
    "Check tomorrow's weather forecast for Lisbon.",
    "Translate 'good morning, see you soon' into Japanese.",
    "Play some relaxing jazz on my speakers.",
    "Call my dentist and move my appointment.",
    "Order a taxi to the airport for 6 am.",
)

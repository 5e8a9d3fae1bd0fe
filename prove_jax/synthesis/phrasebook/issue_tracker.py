"""How users ask for issue_tracker's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_comment": (
        "comment on {issue_id} saying {body}",
        "add a comment to {issue_id}[ that reads {body}]",
        "leave a note on {issue_id}[ with the text {body}]",
        "reply on {issue_id} with {body}",
    ),
    "add_watcher": (
        "add {user_id} as a watcher on {issue_id}",
        "subscribe[ {user_id}] to updates on {issue_id}",
        "make sure {user_id} gets notified when {issue_id} changes",
        "start following {issue_id}[ on behalf of {user_id}]",
    ),
    "assign_issue": (
        "assign {issue_id} to {assignee_id}",
        "hand {issue_id} over to {assignee_id}",
        "put {assignee_id} on {issue_id}",
        "take {issue_id} off whoever has it[ and give it to {assignee_id}]",
    ),
    "complete_sprint": (
        "close out {sprint_id}[ and carry the unfinished issues over to "
        "{move_open_issues_to_sprint_id}]",
        "wrap up {sprint_id}[, moving whatever is left into {move_open_issues_to_sprint_id}]",
        "end {sprint_id} now[ and roll the open work into {move_open_issues_to_sprint_id}]",
        "mark {sprint_id} as finished",
    ),
    "create_issue": (
        "open a {type} in {project_id} called {title}[ with {priority} priority]"
        "[, due {due_date}]",
        "file a new {type} under {project_id} titled {title}[ and assign it to {assignee_id}]",
        "log a {type} in {project_id} for {title}[ with the description {description}]"
        "[ and label it {labels}]",
        "add {title} to {project_id} as a {type}[ estimated at {story_points} points]"
        "[ in {sprint_id}]",
    ),
    "get_issue": (
        "show me {issue_id}",
        "pull up {issue_id} with its comments and links",
        "tell me what's going on with {issue_id}",
        "give me the full details of {issue_id}, including the time logged",
    ),
    "get_project": (
        "show me {project_id}",
        "give me an overview of {project_id}",
        "tell me who's on {project_id} and how its issues break down by status",
        "look up {project_id} with its members and sprints",
    ),
    "get_sprint": (
        "show me what's in {sprint_id}",
        "list the issues planned for {sprint_id}",
        "check how {sprint_id} is going",
        "pull up {sprint_id} and its work, most urgent first",
    ),
    "link_issues": (
        "add a link saying {issue_id} {link_type} {target_issue_id}",
        "record that {issue_id} {link_type} {target_issue_id}",
        "mark that {issue_id} {link_type} {target_issue_id}",
        "note on {issue_id} that it {link_type} {target_issue_id}",
    ),
    "list_projects": (
        "show me all the projects I can see",
        "list our projects with their leads and open issue counts",
        "tell me which projects there are and which sprint each one is running",
    ),
    "list_sprints": (
        "list the sprints[ of {project_id}]",
        "show me the {state} sprints[ in {project_id}]",
        "check sprint progress[ for {project_id}]",
        "find out when the sprints[ of {project_id}] start and end",
    ),
    "list_users": (
        "find people matching {query}[ in {project_id}]",
        "look up {query} in the people directory",
        "list the members of {project_id}[ (just the first {limit})]",
        "list the people[ who can be assigned issues in {project_id}]",
    ),
    "log_work": (
        "log {minutes} minutes on {issue_id}[ for {work_date}][ with the note {note}]",
        "record {minutes} minutes of work against {issue_id}[ for {note}]",
        "book {minutes} minutes to {issue_id}[ for the work I did on {work_date}]",
        "add a time entry of {minutes} minutes to {issue_id}[ saying {note}]",
    ),
    "move_issue_to_sprint": (
        "move {issue_id} into {sprint_id}",
        "plan {issue_id} for {sprint_id}",
        "pull {issue_id} out of its sprint[ and into {sprint_id}]",
        "schedule {issue_id} for {sprint_id}",
    ),
    "remove_issue_link": (
        "remove {link_id}",
        "delete {link_id} between those issues",
        "unlink the two issues joined by {link_id}",
        "get rid of {link_id}",
    ),
    "remove_watcher": (
        "unsubscribe[ {user_id}] from {issue_id}",
        "remove {user_id} as a watcher of {issue_id}",
        "stop sending[ {user_id}] updates about {issue_id}",
        "take {user_id} off the watch list of {issue_id}",
    ),
    "search_issues": (
        "find issues about {query}[ in {project_id}]",
        "show me[ {priority} priority] issues[ in {project_id}][ with status {status}]",
        "list the issues assigned to {assignee_id}[ with status {status}]"
        "[ (just the first {limit})]",
        "search for {type} issues[ labelled {label}][ due by {due_before}][ sorted by {sort}]",
        "find the issues reported by {reporter_id}[ in {project_id}]",
    ),
    "start_sprint": (
        "start {sprint_id}[ running until {end_date}]",
        "kick off {sprint_id}[ with the goal {goal}]",
        "begin {sprint_id} today[, ending on {end_date}][ with the goal {goal}]",
        "get {sprint_id} going[ through {end_date}]",
    ),
    "transition_issue": (
        "move {issue_id} to {status}[ with the resolution {resolution}]",
        "set the status of {issue_id} to {status}[ and comment {comment}]",
        "mark {issue_id} as {status}[, resolved as {resolution}]",
        "push {issue_id} along to {status}[ with the note {comment}]",
    ),
    "update_issue": (
        "update {issue_id}[ with the title {title}][, setting the priority to {priority}]",
        "change the priority of {issue_id} to {priority}",
        "edit {issue_id}[ so it's due {due_date}][, estimated at {story_points} points]",
        "add the labels {add_labels} to {issue_id}[ and remove {remove_labels}]",
        "rewrite the description of {issue_id} as {description}",
    ),
}

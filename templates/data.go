package templates

// The names of the templates. Every one is a file NAME.tmpl, embedded in
// the binary and overridable from a directory (see Load).
const (
	NameWelcome  = "welcome"  // data: Welcome
	NameYourMove = "yourmove" // data: Turn (Move set)
	NameReport   = "report"   // data: Turn
	NameRejected = "rejected" // data: Rejected
	NameReferee  = "referee"  // data: Turn (Move set when a ruling is asked)
	NameGameOver = "gameover" // data: GameOver
	NameHelp     = "help"     // data: Query
	NameBoard    = "board"    // data: Query
	NameStatus   = "status"   // data: Query
	NameAnnounce = "announce" // data: Announce
	NameReminder = "reminder" // data: Reminder
	NameMessage  = "message"  // data: Message
	NameReplaced = "replaced" // data: Replaced
	NameLog      = "log"      // data: Query (Log set)
	NameGames    = "games"    // data: Query (Games set)
	NameNotice   = "notice"   // data: Notice
)

// Common is what every mail knows: the game, its reader and the reader's
// reply key. Every data type below embeds it.
type Common struct {
	Game     string // game id, "g1"
	Ruleset  string // rule system, "gcacw"
	Version  string // ruleset version the game was created with
	Scenario string // scenario name
	Name     string // the reader's name
	Side     string // the reader's side; "" for a referee
	Referee  bool   // the reader referees the game
	Observer bool   // the reader observes the game (Key is then "")
	Key      string // the reader's reply token, for the fallback Key line
	Mailbox  string // pbem's plain address, "pbem@example.org"
	Guide    Guide  // the rule system's examples for the order guide
	// Campaign is what a battle game is fought out for, "the assault on
	// 0504 (battle t1-a1-0504) of campaign camp"; "" for a game that is
	// no campaign's battle.
	Campaign string
}

// Guide is a rule system's examples of the conventions every system's
// orders share (engine.OrderGuide): "MAR" for "MARCH", and conditions
// after an order ("" when its orders take none).
type Guide struct {
	Prefix, Keyword, Conditions string
}

// Participant is a player or referee as the mails list them.
type Participant struct {
	Name    string
	Side    string // "" for a referee
	Address string // a referee's addresses, so that players can write to them
}

// Prompt is one step someone must take now.
type Prompt struct {
	Who      string   // "USA (Anna)", "the referee (Carol)"
	Side     string   // the side that must act; "" for the referee
	Referee  bool     // the step is the referee's
	Yours    bool     // the step is the reader's
	What     string   // one line: what is asked
	Examples []string // orders that would be accepted now
}

// Section is a part of a mail the rule system writes (engine.Explainer):
// a heading and its paragraphs.
type Section struct {
	Heading string
	Lines   []string
}

// Die is one die roll, as the log records it.
type Die struct {
	Index   uint64 // roll number in the game's dice stream
	Sides   int
	Value   int
	Purpose string
}

// Board is the picture a mail carries: a window of at most 78 columns for
// the body, and the name of the attachment holding the whole map.
type Board struct {
	Window     string // pre-rendered, no trailing newline; "" for none
	Attachment string // "map-g1-7.txt", or "" when nothing is attached
}

// Action is one decided input: who sent it, how pbem read it, and what
// came of it.
type Action struct {
	Kind     string   // "order", "ruling" (a referee's), "deadline", "expired" (a players' pause ran out), or "silent" (a referee's change not announced)
	Override bool     // a referee's ruling that changed the game
	By       string   // "Anna (USA)", "Carol (referee)"
	Yours    bool     // the reader sent it (or missed the deadline)
	Received string   // when it was taken in, "Tue 1 Jul 1863 09:00 UTC"
	Reason   string   // a referee's reason for a ruling
	Default  string   // the default order applied when a deadline passed
	Due      string   // when the deadline that passed was due, in the reader's time
	Echo     []string // how each line was read
	Facts    []string // every fact, as the log prints it
	Dice     []Die    // every die rolled for it
}

// Welcome is the data of the welcome mail.
type Welcome struct {
	Common
	Players    []Participant
	Referees   []Participant
	Commitment string   // hex SHA-256 of the dice seed
	First      []Prompt // who acts first
	Move       *Prompt  // the reader's own step, when they act first
	Deadline   string   // the reader's deadline, in their time, and what happens without orders; "" for none
	TakesOver  string   // the seat's former holder, when the reader takes over a seat
	Joins      bool     // the reader joins a game under way (a referee added later)
	Settings   []string // the game's settings that players live by (deadlines, pauses), one a line
	Board      Board
	// Secret is a referee's command secret (only in a referee's welcome).
	Secret string
	// Rules are the rule system's own sections: the rules, options and
	// readings the game is played with.
	Rules []Section
	// Login, for a reader whose address is a mailbox on pbem's own mail
	// host, says how to reach it.
	Login *Login
	// Volume is the reader's mail volume ("every", "turn" or "move"), and
	// Change the words that change it ("MAIL", or a referee's
	// "SETTING mail carol").
	Volume, Change string
	// Page is the reader's secret link to their live page (package web),
	// when the server serves the pages.
	Page string
}

// Login is how a reader logs in to their mailbox on pbem's own mail host.
type Login struct {
	Address    string // "anna@pbem.localhost"
	User       string // "anna"
	IMAP, SMTP string // host:port of each server
	// Password is what the mail shows for the password: compose puts a
	// placeholder here, filled in only as the mail is sent, so the
	// password itself never enters the game's log.
	Password string
	// Later: the seat was given after the game began. The welcome then
	// holds no password: a new mailbox's went to whoever gave the seat.
	Later bool
}

// Announce is the data of a referee's announcement, mailed to everyone.
type Announce struct {
	Common
	By     string // "Carol (referee)"
	Text   string // as the referee wrote it
	Action Action // the whole command, when it did more than announce
	Others bool   // the command changed more than the announcement
	Next   []Prompt
	Move   *Prompt
}

// Reminder is the data of the mail sent before a player's deadline.
type Reminder struct {
	Common
	Due     string // "Wed 2 Jul 1863 09:00 UTC"
	Default string // the order applied if none comes; "" when the referee decides
	Next    []Prompt
	Move    *Prompt
}

// Turn is the data of the mails that follow an accepted action: report,
// yourmove and referee.
type Turn struct {
	Common
	Action Action
	// Since are the parts of earlier reports held for the reader (the
	// mail volume they chose), each an action as the action template
	// renders it, in order: this mail tells them first.
	Since []string
	Next  []Prompt // who must act now
	Move  *Prompt  // the reader's own step (yourmove, or a ruling asked of a referee)
	Board Board
	// Deadline is when the reader's answer is due, and what happens
	// without it (yourmove); nil when the game sets no deadline.
	Deadline *Deadline
	// Mailboxes, in the answer to the referee whose mail gave seats at
	// pbem's own mail host, are those seats' mailboxes, each Password a
	// mark the outbox fills as it sends the mail: the password of a
	// mailbox the command made, or a note that it existed before.
	Mailboxes []Login
}

// Problem is one thing wrong with a line of a rejected mail.
type Problem struct {
	Line int    // 1-based line of the mail; 0 when it is about the whole mail
	Col  int    // 1-based column, in characters
	Text string // the line as written
	Msg  string // what is wrong
	Hint string // the nearest valid form, or ""
}

// Rejected is the data of the mail that rejects an input.
type Rejected struct {
	Common
	Kind     string    // "order", "ruling" or "deadline", as in Action
	Received string    // when the rejected mail was taken in
	Problems []Problem // in line order, at most ten
	More     int       // problems not listed
	Move     *Prompt   // what the reader may send now, when it is their step
	Over     string    // set once the game is over, as in Query
	// For is whose default order was rejected, when the reader is not
	// that player (a referee, or a player of a game without referee);
	// Waits says what the game waits for now.
	For   string
	Waits string
	// Refused says why a referee's mail was not read (no Secret line).
	Refused bool
}

// GameOver is the data of the last mail of a game.
type GameOver struct {
	Common
	Winner     string // the winning side, "" for a draw
	WinnerWho  string // "USA (Anna)"
	Won        bool   // the reader is on the winning side
	Reason     string
	Seed       string   // the revealed dice seed, hex
	Commitment string   // the commitment sent at the start, hex
	Rolls      uint64   // dice rolled in the whole game
	Action     Action   // the action that ended the game
	Since      []string // what was held for the reader (see Turn.Since)
	Board      Board
}

// Deadline is when a player must next act.
type Deadline struct {
	Who     string // "Taro (CSA)"
	Due     string // "Wed 2 Jul 1863 09:00 UTC"
	Default string // what happens if they do not ("PASS", "referee")
}

// Query is the data of the answers to the words every system understands:
// help, board and status.
type Query struct {
	Common
	Word      string   // "HELP", "BOARD", "BOARD FULL" or "STATUS"
	Next      []Prompt // who must act now
	Move      *Prompt  // the reader's own step
	Board     Board
	Full      bool // BOARD FULL: the whole map is the point of the mail
	Deadlines []Deadline
	Players   []Participant
	Referees  []Participant
	Over      string // "USA won: USA reached the target" once the game is over
	Paused    string // "by the referee Carol since … (reason)" while the game is paused
	// Commands are the referee's game commands (HELP to a referee);
	// Words the players' game words (HELP to a player).
	Commands []string
	Words    []string
	// Rules are the rule system's own sections: for HELP, what the reader
	// may do now with an example each; for STATUS, their orders waiting.
	Rules []Section
	// Contact is how a player reaches the referees.
	Contact string
	// Page is the reader's secret page link (HELP; see Welcome.Page).
	Page string
	// Absences are the players' declared absences, one a line.
	Absences []string
	// Log is the answer to LOG: the last actions, each as the reader may
	// see them, oldest first; LogN is how many were asked for.
	Log  []string
	LogN int
	// Games is the answer to GAMES: the reader's games, each on a few
	// lines, and Now when the list was made.
	Games []DeskGame
	Now   string
}

// DeskGame is one game on a referee's desk.
type DeskGame struct {
	Game    string   // "g1"
	What    string   // "gcacw harrow-creek, seq 42"
	State   string   // "USA (Anna) to move", "paused by …", "over: …"
	Details []string // deadlines (overdue ones marked), rulings waited for, asks
}

// Message is the data of a message between a player and the referees.
type Message struct {
	Common
	From       string // "Anna (USA)", "Carol (referee)"
	ToReferees bool   // a player's message to the referees
	Text       string
	// Press: a player's press to other players, addressed To ("you", "you
	// (press to ALL)", or, in the referees' copy, "Ben (CSA)").
	Press bool
	To    string
	// Writer is the id to answer press with (PRESS TO <writer>).
	Writer string
}

// Replaced is the data of the mail telling a seat's former holder that
// the seat changed hands.
type Replaced struct {
	Common
	SeatOf string // the side, or "referee"
	By     string // who changed it: "Carol (referee)", "every side", "the operator"
}

// Notice is the data of the mail telling a player what became of a mail
// of theirs that was not applied as it came (too large, a copy of an
// earlier one, over the rate limit …) or that waits for their
// confirmation. It goes to the player's registered addresses.
type Notice struct {
	Common
	What  string   // what happened, in sentences
	Quote []string // the player's orders it is about, if any
	Code  string   // the line that confirms a held order, if any
	Do    string   // what to do
}

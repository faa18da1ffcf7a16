package templates

import (
	"os"
	"path/filepath"
	"pbem/internal/golden"
	"strings"
	"testing"
	"unicode/utf8"
)

// hexBoard is a board window as a hex ruleset draws it (docs/DESIGN.md, Boards in the mail).
const hexBoard = `   _____         _____         _____
  /2314 \       /2514 \       /2714 \
 /  . .  \_____/  ^ ^  \_____/  T T  \     . clear   ^ hill   T woods
 \ NEWT* /2414 \ 1CAV  /2614 \       /     ~ river   = pike   - road
  \_____/ ~ ~ ~ \_____/  = =  \_____/      * leader stacked   ! fatigue >= 3
  /2315 \ JACK  /2515 \ HOOD  /2715 \
 /  . .  \_____/  . .  \_____/  T T  \
 \       /2415 \       /2615 \       /
  \_____/       \_____/       \_____/

 unit          side  str  org    fatigue  exhausted  hex
 Newton (XX)   USA    7   disorg    2       yes      2314   with Sedgwick
 Jackson (XX)  CSA    9   org       0       no       2414`

func common(name, side string) Common {
	return Common{Game: "mill-creek", Ruleset: "gcacw", Version: "1.4-2", Scenario: "Mill Creek, 1 July 1863",
		Name: name, Side: side, Referee: side == "", Key: "k3v9x2m4q8r7t6w5", Mailbox: "pbem@pbem.localhost",
		Guide: Guide{Prefix: "MAR", Keyword: "MARCH", Conditions: "FORCE IF MA < 4, STOP AT 2316"}}
}

var (
	players  = []Participant{{Name: "Anna Lindqvist", Side: "USA"}, {Name: "Taro Yamada", Side: "CSA"}}
	referees = []Participant{{Name: "Carol Ruiz"}}
	usaMove  = &Prompt{Who: "USA (Anna Lindqvist)", Side: "USA", Yours: true,
		What:     "take or pass the initiative for the next activation",
		Examples: []string{"TAKE", "PASS", "ACTIVATE Newton", "MARCH Newton 2315 2316 FORCE IF MA < 4"}}
	csaNext = Prompt{Who: "CSA (Taro Yamada)", Side: "CSA",
		What: "take or pass the initiative for the next activation", Examples: []string{"TAKE", "PASS"}}
	refMove = &Prompt{Who: "the referee", Referee: true, Yours: true,
		What:     "rule on Cavalry Retreat for 1CAV (GCACW 9.4): the rules give no table here",
		Examples: []string{"RULE retreat 1CAV 2515", "RULE stay 1CAV"}}
	march = Action{Kind: "order", By: "Anna Lindqvist (USA)", Received: "Wed 1 Jul 1863 09:00 UTC",
		Echo: []string{"MARCH Newton from 2314 to 2315, 2316; force march if MA < 4"},
		Facts: []string{
			`dice.rolled purpose="march MA" n=1 faces=6 values=3 index=0`,
			`unit.moved unit=NEWT path=2314,2315,2316 mp=3 extended=true fatigue=1 note="a long note that goes on well past the edge of a mail line so that it has to be wrapped"`,
		},
		Dice: []Die{{Index: 0, Sides: 6, Value: 3, Purpose: "march MA"}, {Index: 1, Sides: 6, Value: 5, Purpose: "extended march (GCACW 5.1-FM.2)"}}}
	board = Board{Window: hexBoard, Attachment: "map-mill-creek-7.txt"}
	rules = []Section{
		{Heading: "This scenario", Lines: []string{"Mill Creek, 1 July 1863: 6 turns of the Standard Series Rules.",
			"- Options: activation-march (a Leader Activation's units march one after another, each with the leader's MA)."}},
		{Heading: "Readings of the rules", Lines: []string{"- A9 (GCACW 5.1-OPT, default): a unit that marches at fatigue 4 under the optional rule stays at fatigue 4.",
			"- A12 (GCACW 5.1.1, chosen by the scenario): Union infantry and artillery march 1d6 MP with a minimum of 2."}},
	}
)

// cases are one or more data sets for every template; the golden file of
// each is testdata/NAME.golden.
var cases = []struct {
	golden string
	tmpl   string
	data   any
}{
	{"welcome-first", NameWelcome, Welcome{Common: common("Anna Lindqvist", "USA"), Players: players, Referees: referees,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{*usaMove}, Move: usaMove, Board: board}},
	{"welcome-second", NameWelcome, Welcome{Common: common("Taro Yamada", "CSA"), Players: players, Referees: referees,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board}},
	{"welcome-mail-move", NameWelcome, Welcome{Common: common("Taro Yamada", "CSA"), Players: players, Referees: referees,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board, Volume: "move", Change: "MAIL"}},
	{"welcome-referee", NameWelcome, Welcome{Common: common("Carol Ruiz", ""), Players: players, Referees: referees,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board,
		Secret: "q7mkz4ta2xw5hr3npe6jvc"}},
	{"welcome-observer", NameWelcome, Welcome{Common: func() Common {
		c := common("Observer", "")
		c.Referee, c.Observer, c.Key, c.Campaign = false, true, "", "the assault on 0504 (battle t1-a1-0504) of campaign camp"
		return c
	}(), Players: players, Referees: referees, Commitment: strings.Repeat("0f1e2d3c", 8),
		First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board, Volume: "every", Change: "MAIL",
		Rules: []Section{{Heading: "The battle's forces, set up by the campaign (house rule, SAMPLE)", Lines: []string{"USA: Hale's Brigade (the campaign's Able, 3 of 6 strength)."}}}}},
	{"welcome-mailbox", NameWelcome, Welcome{Common: common("Taro Yamada", "CSA"), Players: players, Referees: referees,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board,
		Login: &Login{Address: "taro@pbem.localhost", User: "taro", IMAP: "127.0.0.1:1143", SMTP: "127.0.0.1:1025", Password: "{pbem:password}"}}},
	{"yourmove", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: march,
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples}, Board: board}},
	{"yourmove-digest", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: march,
		Since: []string{"Anna Lindqvist (USA) sent orders, received Sat 14 Mar 2026 09:26 UTC.\n\nWhat happened\n-------------\n  Newton marches to 2314.",
			"Anna Lindqvist (USA) sent orders, received Sat 14 Mar 2026 10:02 UTC.\n\nWhat happened\n-------------\n  Jackson marches to 2414."},
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples}, Board: board}},
	{"report-own", NameReport, Turn{Common: common("Anna Lindqvist", "USA"), Action: func() Action { a := march; a.Yours = true; return a }(),
		Next: []Prompt{csaNext}, Board: board}},
	{"report-nodice", NameReport, Turn{Common: common("Anna Lindqvist", "USA"),
		Action: Action{Kind: "deadline", By: "Taro Yamada (CSA)", Received: "Thu 2 Jul 1863 09:00 UTC", Echo: []string{"deadline passed: waiting for the referee"}},
		Next:   []Prompt{{Who: "the referee", Referee: true, What: "decide what CSA does"}}, Board: Board{Window: "USA ###\nCSA #"}}},
	{"referee-step", NameReferee, Turn{Common: common("Carol Ruiz", ""), Action: march,
		Next: []Prompt{*refMove}, Move: refMove, Board: board}},
	{"referee-ruling", NameReferee, Turn{Common: common("Carol Ruiz", ""),
		Action: Action{Kind: "ruling", By: "Dan Okafor (referee)", Received: "Wed 1 Jul 1863 11:30 UTC", Reason: "the players agreed by mail that 1CAV stays",
			Echo: []string{"RULE stay 1CAV"}, Facts: []string{"ruling.applied unit=1CAV stays=true"}},
		Next: []Prompt{csaNext}, Board: board}},
	{"report-override", NameReport, Turn{Common: common("Anna Lindqvist", "USA"),
		Action: Action{Kind: "ruling", Override: true, By: "Carol Ruiz (referee)", Received: "Wed 1 Jul 1863 11:30 UTC", Reason: "Newton was placed one hex off at setup",
			Echo: []string{"SET Newton hex 2314 → 2315", "SET Newton fatigue 2 → 1"}, Facts: []string{"set unit=NEWT field=hex was=2314 now=2315", "set unit=NEWT field=fatigue was=2 now=1"}},
		Next: []Prompt{csaNext}, Board: board}},
	// An example of several lines (HRA's volleys) is indented as one.
	{"yourmove-multiline", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: Action{Kind: "silent"},
		Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: "round 4, Phase III: declare your volleys (HRA 4.III.a)",
			Examples: []string{"FIRE 2nd Virginia AT 6th Wisconsin\nFIRE 5th Virginia AT 7th Wisconsin", "FIRE NONE"}}}},
	{"yourmove-silent", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: Action{Kind: "silent"},
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples}, Board: board}},
	{"report-observer", NameReport, Turn{Common: func() Common { c := common("Observer", ""); c.Referee, c.Observer, c.Key = false, true, ""; return c }(),
		Action: march, Next: []Prompt{csaNext}, Board: board}},
	{"announce", NameAnnounce, Announce{Common: common("Taro Yamada", "CSA"), By: "Carol Ruiz (referee)",
		Text: "The next turn starts on Monday 7 December.\nAnna is away until then; deadlines are extended by three days.",
		Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}}},
	{"announce-with-pause", NameAnnounce, Announce{Common: common("Anna Lindqvist", "USA"), By: "Carol Ruiz (referee)", Text: "Holidays: back on 4 January.",
		Others: true, Action: Action{Kind: "ruling", Override: true, By: "Carol Ruiz (referee)", Received: "Mon 21 Dec 2026 09:00 UTC",
			Echo:  []string{"PAUSE: the game is paused: holidays", "ANNOUNCE: Holidays: back on 4 January."},
			Facts: []string{`pbem.paused by=carol reason=holidays at=1797843600000000000`, `pbem.announced by=carol text="Holidays: back on 4 January."`}},
		Next: []Prompt{*usaMove}, Move: usaMove}},
	{"reminder", NameReminder, Reminder{Common: common("Anna Lindqvist", "USA"), Due: "Fri 3 Jul 1863 09:00 UTC", Default: "PASS",
		Next: []Prompt{*usaMove}, Move: usaMove}},
	{"reminder-referee-decides", NameReminder, Reminder{Common: common("Taro Yamada", "CSA"), Due: "Sat 4 Jul 1863 09:00 UTC",
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples}}},
	{"rejected", NameRejected, Rejected{Common: common("Anna Lindqvist", "USA"), Kind: "order", Received: "Wed 1 Jul 1863 10:00 UTC",
		Problems: []Problem{
			{Line: 1, Col: 14, Text: "MARCH Newton 2351 2316", Msg: "2351 is not next to 2314, where Newton stands", Hint: "MARCH Newton 2315 2316"},
			{Line: 3, Col: 10, Text: "ACTIVATE\tJack", Msg: `"Jack" is ambiguous: Jackson (XX), Jack Hays (brigade)`, Hint: "ACTIVATE Jackson"},
			{Line: 4, Col: 7, Text: "MARCH 平山 2315", Msg: "no leader or unit by that name", Hint: ""},
			{Line: 5, Col: 1, Msg: "an order is missing its end"},
			{Msg: "send exactly one activation per mail", Hint: "ACTIVATE Newton"},
		}, Move: usaMove}},
	{"rejected-over", NameRejected, Rejected{Common: common("Taro Yamada", "CSA"), Kind: "order", Received: "Sat 4 Jul 1863 19:00 UTC",
		Problems: []Problem{{Line: 1, Col: 1, Text: "TAKE", Msg: "the game is over: USA holds Mill Ford"}}, Over: "USA (Anna Lindqvist) won: USA holds Mill Ford"}},
	{"rejected-more", NameRejected, Rejected{Common: common("Anna Lindqvist", "USA"), Kind: "order", Received: "Wed 1 Jul 1863 10:00 UTC",
		Problems: []Problem{{Line: 1, Col: 1, Text: "Hola,", Msg: `"Hola," is not an order`}, {Line: 2, Col: 1, Text: "aquí van", Msg: `"aquí" is not an order`}},
		More:     57, Move: usaMove}},
	{"notice-held", NameNotice, Notice{Common: common("Anna Lindqvist", "USA"),
		What:  `Your mail "Re: [pbem g1] Harrow Creek", received Wed 1 Jul 1863 10:00 UTC, brought orders in your name, but pbem could not make sure you sent it: its envelope sender eve@example.net is not its From address anna@example.org, and it carries no DKIM signature. So it has not been applied. These are its orders:`,
		Quote: []string{"TRANSFER Hale TO Lyle", "MARCH\tLyle 1605"}, Code: "CONFIRM k3v9-x2m4",
		Do: "If you sent it, reply to this mail with the line above, unquoted, and the orders are applied as if they had just arrived. The code works once, until Fri 3 Jul 1863 10:00 UTC. If you did not send it, do nothing: someone may be sending mail in your name, so tell the referee."}},
	{"notice-too-large", NameNotice, Notice{Common: common("Taro Yamada", "CSA"),
		What: `Your mail "Re: [pbem g1] Harrow Creek", received Wed 1 Jul 1863 10:00 UTC, is too large for pbem: it is 2.6 MB, and pbem reads mails of up to 2.0 MB. Nothing of it was read.`,
		Do:   "Send your orders again in a new mail without attachments (a photo, or a long quoted or forwarded mail, makes a mail large)."}},
	{"rejected-notyours", NameRejected, Rejected{Common: common("Taro Yamada", "CSA"), Kind: "order", Received: "Wed 1 Jul 1863 10:00 UTC",
		Problems: []Problem{{Line: 1, Col: 1, Text: "TAKE", Msg: "it is USA's turn"}}}},
	{"gameover-won", NameGameOver, GameOver{Common: common("Anna Lindqvist", "USA"), Winner: "USA", WinnerWho: "USA (Anna Lindqvist)", Won: true,
		Reason: "USA holds Mill Ford at the end of the last turn.", Seed: strings.Repeat("a1b2c3d4", 8), Commitment: strings.Repeat("0f1e2d3c", 8),
		Rolls: 118, Action: march, Board: board}},
	{"gameover-lost", NameGameOver, GameOver{Common: common("Taro Yamada", "CSA"), Winner: "USA", WinnerWho: "USA (Anna Lindqvist)",
		Reason: "USA holds Mill Ford at the end of the last turn.", Seed: strings.Repeat("a1b2c3d4", 8), Commitment: strings.Repeat("0f1e2d3c", 8),
		Rolls: 1, Action: march, Board: board}},
	{"gameover-draw", NameGameOver, GameOver{Common: common("Carol Ruiz", ""), Reason: "Neither side holds Mill Ford.",
		Seed: strings.Repeat("a1b2c3d4", 8), Commitment: strings.Repeat("0f1e2d3c", 8), Rolls: 0,
		Action: Action{Kind: "ruling", Yours: true, Received: "Sat 4 Jul 1863 18:00 UTC", Echo: []string{"RULE end draw"}, Facts: []string{"game.ended draw=true"}}}},
	{"help-move", NameHelp, Query{Common: common("Anna Lindqvist", "USA"), Word: "HELP", Next: []Prompt{*usaMove}, Move: usaMove}},
	{"help-wait", NameHelp, Query{Common: common("Taro Yamada", "CSA"), Word: "HELP", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}}},
	{"help-referee-paused", NameHelp, Query{Common: common("Carol Ruiz", ""), Word: "HELP", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Paused: "by the players since Mon 7 Dec 2026 09:00 UTC (family visit)", Commands: []string{"ROLLBACK TO <seq>             the game as it was after event <seq>", "PAUSE [reason]                no orders are taken, no deadline runs"}}},
	{"help-over", NameHelp, Query{Common: common("Carol Ruiz", ""), Word: "HELP", Over: "USA won: USA holds Mill Ford"}},
	{"board", NameBoard, Query{Common: common("Taro Yamada", "CSA"), Word: "BOARD", Board: board}},
	{"board-full", NameBoard, Query{Common: common("Carol Ruiz", ""), Word: "BOARD FULL", Full: true, Board: board}},
	{"status", NameStatus, Query{Common: common("Taro Yamada", "CSA"), Word: "STATUS", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Deadlines: []Deadline{{Who: "Anna Lindqvist (USA)", Due: "Fri 3 Jul 1863 09:00 UTC", Default: "PASS"}, {Who: "Taro Yamada (CSA)", Due: "Sat 4 Jul 1863 09:00 UTC"}},
		Players:   players, Referees: referees}},
	{"status-paused", NameStatus, Query{Common: common("Taro Yamada", "CSA"), Word: "STATUS", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Paused: "by the referee Carol Ruiz since Mon 7 Dec 2026 09:00 UTC (holidays)", Players: players, Referees: referees}},
	{"welcome-rules", NameWelcome, Welcome{Common: common("Taro Yamada", "CSA"), Players: players,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Rules: rules}},
	{"help-rules", NameHelp, Query{Common: common("Anna Lindqvist", "USA"), Word: "HELP", Next: []Prompt{*usaMove}, Move: usaMove, Rules: rules}},
	{"status-rules", NameStatus, Query{Common: common("Taro Yamada", "CSA"), Word: "STATUS", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Players: players, Rules: []Section{{Heading: "Your orders waiting", Lines: []string{"- #1 MARCH Jackson 2415", "- STANDING CAVALRY RETREAT ALL NEVER"}}}}},
	{"yourmove-deadline", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: march,
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples},
		Deadline: &Deadline{Who: "Taro Yamada (CSA)", Due: "Sat 4 Jul 1863 09:00 UTC", Default: "PASS"}}},
	{"status-over", NameStatus, Query{Common: common("Anna Lindqvist", "USA"), Word: "STATUS", Over: "USA won: USA holds Mill Ford", Players: players}},
	// Deadlines in people's time, seats that change hands,
	// answers to every mail, messages, and a referee's desk.
	{"yourmove-deadline-passed-tz", NameYourMove, Turn{Common: common("Taro Yamada", "CSA"), Action: Action{Kind: "deadline", By: "Anna Lindqvist (USA)",
		Received: "Fri 3 Jul 1863 09:00 UTC", Due: "Fri 3 Jul 1863 08:59 UTC (17:59 JST)", Default: "PASS", Echo: []string{"PASS"}, Facts: []string{"USA passes."}},
		Next: []Prompt{{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What}}, Move: &Prompt{Who: csaNext.Who, Side: "CSA", Yours: true, What: csaNext.What, Examples: csaNext.Examples},
		Deadline: &Deadline{Who: "Taro Yamada (CSA)", Due: "Sat 4 Jul 1863 09:00 UTC (18:00 JST)", Default: "PASS"}, Board: board}},
	{"welcome-takes-over", NameWelcome, Welcome{Common: common("Bob Brown", "USA"), Players: players,
		Referees: []Participant{{Name: "Carol Ruiz", Address: "carol@example.org"}}, TakesOver: "Oscar Wilde",
		Settings:   []string{"deadline 3d; if none come: PASS", "a pause the players ask for ends by itself after 14d"},
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{*usaMove}, Move: usaMove, Deadline: "Fri 3 Jul 1863 09:00 UTC; if none come: PASS", Board: board}},
	{"welcome-takes-over-mailbox", NameWelcome, Welcome{Common: common("Kim Lee", "CSA"), Players: players,
		Referees: []Participant{{Name: "Carol Ruiz", Address: "carol@example.org"}}, TakesOver: "Taro Yamada",
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board,
		Login: &Login{Address: "kim@pbem.localhost", User: "kim", IMAP: "127.0.0.1:1143", SMTP: "127.0.0.1:1025", Later: true}}},
	{"referee-new-mailboxes", NameReferee, Turn{Common: common("Carol Ruiz", ""),
		Action: Action{Kind: "ruling", By: "Carol Ruiz (referee)", Received: "Wed 1 Jul 1863 11:30 UTC", Reason: "Taro has left",
			Echo: []string{"REPLACE taro: mail now goes to kim@pbem.localhost (was taro@example.jp); the seat has a new key, and the old one no longer works", "OBSERVER added lee@pbem.localhost"}},
		Next: []Prompt{csaNext}, Board: board,
		Mailboxes: []Login{{Address: "kim@pbem.localhost", User: "kim", IMAP: "127.0.0.1:1143", SMTP: "127.0.0.1:1025", Password: "{pbem:new-mailbox:kim:41}"},
			{Address: "lee@pbem.localhost", User: "lee", IMAP: "127.0.0.1:1143", SMTP: "127.0.0.1:1025", Password: "{pbem:new-mailbox:lee:41}"}}}},
	{"welcome-joins", NameWelcome, Welcome{Common: common("Dana Cole", ""), Players: players,
		Referees: []Participant{{Name: "Carol Ruiz", Address: "carol@example.org"}, {Name: "Dana Cole", Address: "dana@example.org"}}, Joins: true,
		Commitment: strings.Repeat("0f1e2d3c", 8), First: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}}, Board: board,
		Secret: "q7mkz4ta2xw5hr3npe6jvc"}},
	{"rejected-refused", NameRejected, Rejected{Common: common("Carol Ruiz", ""), Kind: "ruling", Received: "Wed 1 Jul 1863 10:00 UTC", Refused: true,
		Problems: []Problem{{Msg: "pbem did not apply this mail: it has no Secret line. A referee's mail that changes the game must carry the line \"Secret: …\" from your welcome mail, written as it stands", Hint: "send the mail again with your Secret line (HELP, BOARD, STATUS, LOG and GAMES need none)"}}}},
	{"rejected-default-referee", NameRejected, Rejected{Common: common("Carol Ruiz", ""), Kind: "deadline", Received: "Fri 3 Jul 1863 09:00 UTC", For: "Taro Yamada (CSA)",
		Problems: []Problem{{Line: 1, Col: 1, Text: "FOO", Msg: "no order FOO", Hint: "PASS"}},
		Waits:    "The game waits for Taro Yamada's orders, or for yours: ORDER taro <orders> enters them."}},
	{"rejected-observer", NameRejected, Rejected{Common: func() Common { c := common("Observer", ""); c.Referee, c.Observer, c.Key = false, true, ""; return c }(),
		Kind: "observer", Received: "Wed 1 Jul 1863 10:00 UTC", Problems: []Problem{{Msg: "you observe this game", Hint: "write to the referees: Carol Ruiz <carol@example.org>"}}}},
	{"message-to-referees", NameMessage, Message{Common: common("Carol Ruiz", ""), From: "Taro Yamada (CSA)", ToReferees: true,
		Text: "May Hood's brigade cross at the mill ford?\nIt was flooded last turn."}},
	{"message-press", NameMessage, Message{Common: common("Taro Yamada", "CSA"), From: "Anna Lindqvist (USA)", Press: true, To: "you (press to ALL)", Writer: "anna",
		Text: "Meet me at the mill at dawn.\n\nBring the cider."}},
	{"message-press-referee", NameMessage, Message{Common: common("Carol Ruiz", ""), From: "Anna Lindqvist (USA)", Press: true, To: "Taro Yamada (CSA)", Writer: "anna",
		Text: "Meet me at the mill at dawn."}},
	{"message-from-referee", NameMessage, Message{Common: common("Taro Yamada", "CSA"), From: "Carol Ruiz (referee)", Text: "Yes, at half speed."}},
	{"replaced", NameReplaced, Replaced{Common: func() Common { c := common("Oscar Wilde", "USA"); c.Key = ""; return c }(), SeatOf: "USA", By: "Carol Ruiz (referee)"}},
	{"help-player-words", NameHelp, Query{Common: common("Taro Yamada", "CSA"), Word: "HELP", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Words:   []string{"PAUSE [reason]          the game pauses once every side sent PAUSE", "REFEREE <message>       a message to the referees (the rest of the mail)"},
		Contact: "send REFEREE <your message>, or write to Carol Ruiz <carol@example.org>"}},
	{"status-absent", NameStatus, Query{Common: common("Taro Yamada", "CSA"), Word: "STATUS", Next: []Prompt{{Who: "USA (Anna Lindqvist)", Side: "USA", What: usaMove.What}},
		Deadlines: []Deadline{{Who: "Anna Lindqvist (USA)", Due: "Fri 3 Jul 1863 09:00 UTC (11:00 CEST)", Default: "PASS"}},
		Absences:  []string{"Anna Lindqvist: away from Wed 1 Jul 1863 09:00 UTC to Thu 2 Jul 1863 09:00 UTC"},
		Players:   players, Referees: []Participant{{Name: "Carol Ruiz", Address: "carol@example.org"}}, Contact: "send REFEREE <your message>, or write to Carol Ruiz <carol@example.org>"}},
	{"log", NameLog, Query{Common: common("Carol Ruiz", ""), Word: "LOG 3", LogN: 3, Log: []string{
		"seq 41  Wed 1 Jul 1863 09:00 UTC  anna: MARCH Newton 2315 2316 → accepted: Newton marches to 2316.",
		"seq 44  Wed 1 Jul 1863 10:00 UTC  taro: PASS → rejected: line 1 col 1: it is USA's turn",
		"seq 46  Wed 1 Jul 1863 11:00 UTC  carol (referee): ROLLBACK 1 ACTION → accepted: the referee Carol rolled the game back to seq 40: what came after is undone.",
	}}},
	{"games", NameGames, Query{Common: common("Carol Ruiz", ""), Word: "GAMES", Now: "Wed 1 Jul 1863 12:00 UTC", Games: []DeskGame{
		{Game: "mill-creek", What: "gcacw harrow-creek, seq 46", State: "USA (Anna Lindqvist) to move",
			Details: []string{"Anna Lindqvist (USA): due Thu 2 Jul 1863 09:00 UTC; if none come: PASS"}},
		{Game: "kettle-run", What: "hra kettle-run, seq 12", State: "paused by the players since Tue 30 Jun 1863 09:00 UTC (holidays)",
			Details: []string{"OVERDUE Taro Yamada (CSA): was due Mon 29 Jun 1863 09:00 UTC; waiting for the referee", "ruling waited for: rule on Cavalry Retreat for 1CAV"}},
	}}},
}

func TestGolden(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			got, err := set.Render(tc.tmpl, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			checkBody(t, got, boardOf(tc.data))
			golden.CheckString(t, tc.golden+".golden", got)
		})
	}
}

func TestEveryTemplateHasAGoldenCase(t *testing.T) {
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.tmpl] = true
	}
	partials := map[string]bool{"footer": true, "guide": true, "action": true, "next": true, "move": true, "mapblock": true, "sections": true, "since": true}
	for _, n := range set.Names() {
		if !covered[n] && !partials[n] {
			t.Errorf("template %s has no golden case", n)
		}
	}
	for _, n := range []string{NameWelcome, NameYourMove, NameReport, NameRejected, NameReferee, NameGameOver, NameHelp, NameBoard, NameStatus} {
		if !covered[n] {
			t.Errorf("template %s has no golden case", n)
		}
	}
}

func boardOf(data any) string {
	switch d := data.(type) {
	case Welcome:
		return d.Board.Window
	case Turn:
		return d.Board.Window
	case GameOver:
		return d.Board.Window
	case Query:
		return d.Board.Window
	}
	return ""
}

// checkBody checks what every mail body must be: lines of at most Width
// columns (but for the board's), no trailing spaces (but for the "-- "
// marker), the Key line and the signature at the end.
func checkBody(t *testing.T, body, board string) {
	t.Helper()
	exempt := map[string]bool{}
	for _, l := range strings.Split(board, "\n") {
		exempt[l] = true
	}
	for i, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > Width && !exempt[l] {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
		if l != SignatureMarker && strings.TrimRight(l, " \t") != l {
			t.Errorf("line %d has trailing space: %q", i+1, l)
		}
	}
	observer := strings.Contains(body, "\nYou observe game ") || strings.HasSuffix(body, "\nThis mail needs no answer.\n-- \npbem\n")
	if observer && strings.Contains(body, "Key:") {
		t.Errorf("an observer's mail carries a key:\n%s", body)
	}
	if !observer && !strings.HasSuffix(body, "\nKey: k3v9x2m4q8r7t6w5\n-- \npbem\n") {
		t.Errorf("body does not end with the Key line and signature:\n%s", body)
	}
	if strings.Contains(body, "\n\n\n") {
		t.Errorf("body has two blank lines in a row:\n%s", body)
	}
	if strings.Contains(body, "<no value>") {
		t.Errorf("body shows <no value>:\n%s", body)
	}
}

func TestLoadOverrides(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		wantErr string
		check   func(t *testing.T, s *Set)
	}{
		{name: "replaces one template, keeps the rest",
			files: map[string]string{"board.tmpl": "Board for {{.Name}}.\n{{template \"footer\" .}}", ".board.tmpl.swp": "ignored"},
			check: func(t *testing.T, s *Set) {
				got, err := s.Render(NameBoard, Query{Common: common("Anna", "USA")})
				if err != nil || !strings.HasPrefix(got, "Board for Anna.\n---") {
					t.Fatalf("override not used: %q %v", got, err)
				}
				got, err = s.Render(NameHelp, Query{Common: common("Anna", "USA")})
				if err != nil || !strings.Contains(got, "How to write orders") {
					t.Fatalf("embedded help lost: %q %v", got, err)
				}
			}},
		{name: "an override of a partial reaches every template",
			files: map[string]string{"footer.tmpl": "-- \nthe management\n"},
			check: func(t *testing.T, s *Set) {
				got, _ := s.Render(NameStatus, Query{Common: common("Anna", "USA")})
				if !strings.HasSuffix(got, "\n-- \nthe management\n") {
					t.Fatalf("footer override not used: %q", got)
				}
			}},
		{name: "a misspelt name is an error", files: map[string]string{"welcom.tmpl": "x"}, wantErr: "welcom.tmpl is not a template pbem knows"},
		{name: "another extension is an error", files: map[string]string{"welcome.txt": "x"}, wantErr: "welcome.txt is not a template"},
		{name: "a parse error names the file", files: map[string]string{"report.tmpl": "{{if}}"}, wantErr: "report.tmpl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Load(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error containing %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing override directory should be an error")
	}
}

func TestRenderErrors(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Render("nosuch", nil); err == nil {
		t.Error("unknown template rendered")
	}
	if _, err := s.Render(NameWelcome, Query{}); err == nil || !strings.Contains(err.Error(), "welcome") {
		t.Errorf("wrong data type: %v", err)
	}
}

func TestFuncs(t *testing.T) {
	wraps := []struct {
		width        int
		prefix, text string
		want         string
	}{
		{20, "", "one two three four five six", "one two three four\nfive six"},
		{20, "  - ", "one two three four five six", "  - one two three\n    four five six"},
		{10, "", "averyveryverylongword x", "averyveryverylongword\nx"},
		{20, "", "a\n\nb", "a\n\nb"},
		{20, "* ", "\nb c", "\n* b c"}, // an empty first line keeps the prefix for the next
		{7, "", "日本 語", "日本 語"},        // wide characters take two columns
		{6, "", "日本 語", "日本\n語"},
		{5, "", "e\u0301e\u0301e\u0301 x", "e\u0301e\u0301e\u0301 x"}, // combining marks none
		{4, "", "e\u0301e\u0301e\u0301 x", "e\u0301e\u0301e\u0301\nx"},
	}
	for _, tc := range wraps {
		if got := wrap(tc.width, tc.prefix, tc.text); got != tc.want {
			t.Errorf("wrap(%d, %q, %q) = %q, want %q", tc.width, tc.prefix, tc.text, got, tc.want)
		}
	}
	carets := []struct {
		col  int
		text string
		want string
	}{
		{1, "ADD 9", "^"},
		{5, "ADD 9", "    ^"},
		{5, "A\tD 9", "    ^"},
		{4, "平山 x", "     ^"},
		{3, "e\u0301x", " ^"},
		{8, "ADD 9", "       ^"},
		{0, "ADD", "^"},
	}
	for _, tc := range carets {
		if got := caret(tc.col, tc.text); got != tc.want {
			t.Errorf("caret(%d, %q) = %q, want %q", tc.col, tc.text, got, tc.want)
		}
	}
	if got := tidy("\n\nab  \n-- \nc\t\n\n"); got != "ab\n-- \nc\n" {
		t.Errorf("tidy = %q", got)
	}
}

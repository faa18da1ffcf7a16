// Package play is the runtime that plays games of any rule system: it
// folds a game's log into its state (snapshot + tail), decides each
// undecided input in log order with dice drawn from the game's committed
// seed, appends the decision with the mails it causes, and keeps one
// actor (goroutine) per active game. It also holds what every rule system
// shares at run time: game creation and the dice seed, the referee's game
// commands (rollback, pause, deadlines, seats, settings), deadlines, the
// players' own words and their press to each other (press.go, kept for
// its readers alone), and the audit that re-decides a whole campaign.
//
// Rule systems never import play: they implement the contract in package
// engine, and play drives them through it. Nothing here reads the clock
// or a global random source while folding or deciding: the same log in
// gives the same state, the same boards and the same mails out.
//
// A bug in a rule system stops one input of one game, never the server:
// every call into a rule system is guarded (contain.go), a decision that
// panics is rejected like one that errs, and a game whose log no longer
// folds is failing, answering that it is, while every other game goes on.
package play

// Package mailtrust holds the end-to-end tests of whom pbem believes a
// mail is from: pbem serve (the built binary) reading a real Dovecot
// behind a real Postfix, players and forgers on a mail host of their own,
// each test with its own servers, ports and directories so that they run
// in parallel (with each other and with cmd/pbem's tests). It has no code
// of its own beyond the tests.
package mailtrust

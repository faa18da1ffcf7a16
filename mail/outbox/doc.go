// Package outbox is the sending half of pbem's transactional outbox.
//
// A mail is decided, not sent: the engine appends a mail.queued event in
// the same transaction as the decision that caused it, fully rendered
// (recipients, subject, threading ids, body, attachments). This package
// turns each such event into RFC 5322 bytes with Render, delivers them
// over SMTP with a Sender, retrying temporary failures with exponential
// backoff, and appends how each mail ends to the game's log: mail.sent, or
// mail.failed marked Permanent. A temporary failure is no event (a mail
// waiting for a server that is down would add one every 10 minutes, for
// days): Status counts the attempts, for metrics and the health check,
// and the queue keeps each mail's count and backoff for the run. The log,
// not the sender, remembers what is still to send: on start, the caller
// enqueues every mail.queued event that has neither a mail.sent nor a
// permanent mail.failed (with the temporary failures an older log
// records, which count towards Config.MaxAttempts).
//
// # Delivery is at least once
//
// The server's "250 OK" after DATA and the commit of mail.sent are two
// steps: if the process stops between them (a crash, a kill, a full disk),
// the log still shows the mail as unsent, and it is sent again after the
// restart. The copy is byte-identical, because Render depends only on the
// event (its Date is the event's recorded time, its MIME boundary is
// derived from the MailID) and carries the same Message-ID: servers and
// clients that deduplicate by Message-ID drop it, and at worst the player
// sees the same mail twice in the same thread. Likewise an attempt cut off after the final dot but before the
// reply is read is counted as a temporary failure and retried. A mail is
// never lost and never silently dropped: it ends with mail.sent, or with a
// mail.failed marked Permanent.
//
// # It never gives up
//
// A temporary failure (a 4xx, a server down, a refused login) is retried
// with backoff until the server takes the mail or refuses it for good
// (Config.MaxAttempts can set a limit; by default there is none). When the
// log refuses an attempt's outcome (a full disk), the outcome, not the
// mail, is tried again with backoff, and nothing new is sent until the log
// takes it. Repeated failures are logged once a minute, and Status shows
// them (for metrics and a health check) while they last.
//
// Stopping a Sender (cancelling Run's context) never leaves an attempt
// half written. An attempt whose final dot has not been sent is abandoned:
// the connection is closed, the server discards the transaction, nothing
// is recorded and the mail is sent by the next run. An attempt past that
// point is finished (bounded by Config.Timeout) and its event, if it
// ended the mail, appended before Run returns.
package outbox

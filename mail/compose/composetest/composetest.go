// Package composetest gives tests pbem's mail composer as it renders real
// mails: the shipped templates, a test domain and a fixed reply-token
// secret. The rule systems' tests pass it to the acceptance suite
// (engine/enginetest), whose leak test reads every mail a viewer gets.
package composetest

import (
	"testing"

	"pbem/mail/compose"
	"pbem/templates"
)

// New returns a composer with the shipped templates, for domain pbem.test.
func New(tb testing.TB) *compose.Composer {
	tb.Helper()
	set, err := templates.Load("")
	if err != nil {
		tb.Fatalf("the shipped mail templates: %v", err)
	}
	return compose.New(compose.Config{Domain: "pbem.test", Local: "pbem", Secret: []byte("enginetest reply secret")}, set)
}

package parse

import (
	"reflect"
	"testing"
)

// A line that is plainly a remark of thanks is no order: it is left out,
// and never takes the orders around it with it (a closing line with
// orders under it is a remark, not the start of a signature).
func TestRemarksAreNoOrders(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
	}{
		{"Thanks for the game!\nPASS", []string{"PASS"}},
		{"PASS\nthanks a lot, see you next turn\nMARCH Lyle 1605", []string{"PASS", "MARCH Lyle 1605"}},
		{"thanks\nPASS", []string{"PASS"}},
		{"PASS\ncheers\nMARCH Lyle 1605", []string{"PASS", "MARCH Lyle 1605"}},
		{"Thanks!\n\nIron Brigade: ADVANCE 4\n", []string{"Iron Brigade: ADVANCE 4"}},
		// A sign-off under the orders is still the signature, whole.
		{"PASS\n\nThanks,\nAnna Kowalska\nCommander, Calder District\n+48 123 456", []string{"PASS"}},
		{"PASS\nCheers, Anna", []string{"PASS"}},
		// An order's own words are kept.
		{"MARCH Thanksgiving 1605", []string{"MARCH Thanksgiving 1605"}},
	} {
		raw := "From: Anna Kowalska <anna@example.org>\r\nTo: x@y\r\nSubject: s\r\nMessage-ID: <a@b>\r\nContent-Type: text/plain\r\n\r\n" + c.body
		m, err := Parse([]byte(raw), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range m.Orders().Lines {
			got = append(got, l.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: orders %q, want %q", c.body, got, c.want)
		}
	}
}

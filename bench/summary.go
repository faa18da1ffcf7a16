package bench

import (
	"fmt"
	"io"
	"strings"
)

// A summaryRow is one goal's figure, beside the baseline measured in the
// same run and the goal, for the table Run prints at its end.
type summaryRow struct {
	measure          string
	figure, baseline string
	// ratio is figure over baseline, as the goal reads it (0: none).
	ratio float64
	goal  string
	met   bool
}

// summary gathers the rows of the parts that ran, in order.
type summary struct{ rows []summaryRow }

func (s *summary) add(r summaryRow) {
	if s != nil {
		s.rows = append(s.rows, r)
	}
}

// print writes the table: one line a goal, its figure, its same-run
// baseline, their ratio and whether the goal is met.
func (s *summary) print(w io.Writer) {
	if s == nil || len(s.rows) == 0 {
		return
	}
	fmt.Fprintln(w, "summary: each goal's figure beside its baseline from this run")
	width := len("measure")
	for _, r := range s.rows {
		width = max(width, len(r.measure))
	}
	fmt.Fprintf(w, "  %-*s  %16s  %16s  %7s  %-26s %s\n", width, "measure", "figure", "baseline", "ratio", "goal", "")
	for _, r := range s.rows {
		ratio := "-"
		if r.ratio != 0 {
			ratio = fmt.Sprintf("%.3f", r.ratio)
		}
		met := "met"
		if !r.met {
			met = "NOT MET"
		}
		fmt.Fprintf(w, "  %-*s  %16s  %16s  %7s  %-26s %s\n", width, r.measure, r.figure, r.baseline, ratio, r.goal, met)
	}
	fmt.Fprintln(w, "  "+strings.Repeat("-", width+74))
	fmt.Fprintln(w, "  replay: ratio of CPU time per event, raw scan over replay, the store's pages kept mapped (see 'replay' above);")
	fmt.Fprintln(w, "          (read …): the same ratio for reading and decoding the events' envelopes alone;")
	fmt.Fprintln(w, "          (facts …): for reading them and decoding their decisions' facts too; (rules …): for the rule system's work alone,")
	fmt.Fprintln(w, "          its facts decoded beforehand; (ceiling …): for facts and rules together, the most a replay can reach")
	fmt.Fprintln(w, "  throughput: (bound …): the host alone moving two mails an order, as pbem's path does, over the baseline's one: no pbem can pass it")
	fmt.Fprintln(w)
}

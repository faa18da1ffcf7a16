package bench

import (
	"fmt"
	"io"
	"testing"
)

// BenchmarkDurableAppends runs the appends part (64 games appending
// concurrently through the store's group commit, beside raw bbolt Batch
// tuned to the writers, in turn) and reports both rates and their ratio
// (the goal is 0.8). (The cold start is guarded by pbem bench --parts
// coldstart alone: it times 'pbem serve', which a test binary is not.)
func BenchmarkDurableAppends(b *testing.B) {
	const writers, per = 64, 1000 // as pbem bench
	var ours, base, ratio float64
	for b.Loop() {
		a := testApp(io.Discard)
		a.sum = &summary{}
		if err := benchAppends(a, b.TempDir(), writers, per); err != nil {
			b.Fatal(err)
		}
		r := onlyRow(b, a.sum)
		ours, base, ratio = r.ratio*perSec(b, r.baseline), perSec(b, r.baseline), r.ratio
	}
	b.ReportMetric(ours, "appends/s")
	b.ReportMetric(base, "raw-appends/s")
	b.ReportMetric(ratio, "ratio")
}

// onlyRow is the one summary row a part added.
func onlyRow(b *testing.B, s *summary) summaryRow {
	b.Helper()
	if len(s.rows) != 1 {
		b.Fatalf("the part added %d summary rows, want 1", len(s.rows))
	}
	return s.rows[0]
}

// perSec reads a "12345 /s …" figure.
func perSec(b *testing.B, s string) float64 {
	b.Helper()
	var v float64
	if _, err := fmt.Sscanf(s, "%f /s", &v); err != nil {
		b.Fatalf("no rate in %q: %v", s, err)
	}
	return v
}

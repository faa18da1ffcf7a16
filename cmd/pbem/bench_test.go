package main

import (
	"regexp"
	"strconv"
	"testing"
)

// pbem bench --parts throughput,coldstart prints sustained end-to-end
// orders/s beside the mail host alone (moving one mail an order, and
// two as pbem's path does), with the commits of each file
// that carried them, and the time until serve answers
// with stored games beside reading every game's head.
func TestBenchThroughputAndColdStartPrintTheirFiguresWithBaselines(t *testing.T) {
	cpuBound(t)
	out, errOut, code := pbem(t, nil, "bench", "--parts", "throughput,coldstart", "--throughput-orders", "8", "--throughput-games", "2",
		"--coldstart-games", "20")
	if code != 0 {
		t.Fatalf("bench: %d\n%s\n%s", code, out, tail(errOut, 20))
	}
	tp := regexp.MustCompile(`orders/s, SMTP in to reply sent\s+(\d+) /s\n\s+baseline\s+(\d+) /s\n\s+ratio\s+([0-9.]+)`).FindStringSubmatch(out)
	if tp == nil {
		t.Fatalf("no throughput figure:\n%s", out)
	}
	if ours, _ := strconv.Atoi(tp[1]); ours <= 0 {
		t.Fatalf("throughput %s/s:\n%s", tp[1], out)
	}
	// The host alone moving both mails of an order, and what it bounds.
	if !regexp.MustCompile(`baseline, two mails an order\s+\d+ /s\s+ratio \d+\.\d{3}\s+\(the host alone moving two mails an order`).MatchString(out) {
		t.Fatalf("no two-mail baseline:\n%s", out)
	}
	// Where the time goes: the fsyncs of each file an order costs.
	for _, file := range []string{"the event log", "the mail host's file"} {
		re := `(?m)^  ` + file + `\s+\d+\.\d\d commits an order,\s+\d+\.\d requests a commit, committing \(writing \+ fsync\)\s+\d+% of the time, \S+ a commit$`
		if !regexp.MustCompile(re).MatchString(out) {
			t.Fatalf("no commits of %s:\n%s", file, out)
		}
	}
	if !regexp.MustCompile(`(?m)^  CPU\s+\d+\.\d\d ms an order,\s+\d+% of the \d+ cores busy`).MatchString(out) {
		t.Fatalf("no CPU an order:\n%s", out)
	}
	// And what the disk allows at that many commits an order.
	if !regexp.MustCompile(`the disk: commits\s+\d+ /s\s+\(two bare bbolt files side by side, a small put a commit\)\n\s+the most orders/s they allow\s+\d+ /s\s+\(those commits over the \d+\.\d\d commits an order took\)`).MatchString(out) {
		t.Fatalf("no ceiling of the disk's commits:\n%s", out)
	}
	// The summary's row: the figure, its baseline, their ratio, the goal.
	if !regexp.MustCompile(`(?m)^  throughput, 8 orders by mail\s+\d+ /s\s+\d+ /s host\s+\d+\.\d{3}\s+≥ 1000 /s, ratio ≥ 0\.7 \(bound \d+\.\d\d\)\s+(met|NOT MET)$`).MatchString(out) {
		t.Fatalf("no throughput row in the summary:\n%s", out)
	}
	cs := regexp.MustCompile(`cold start: 20 stored games[^\n]*\n\s+until serving\s+(\S+)\n\s+baseline: bare bbolt opens, reads every head\s+(\S+)`).FindStringSubmatch(out)
	if cs == nil {
		t.Fatalf("no cold start figure:\n%s", out)
	}
	t.Logf("%s", out)
}

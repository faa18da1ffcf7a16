package bench

import (
	"bytes"
	"io"
	"pbem/server"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// BenchmarkThroughput runs the throughput part (orders over SMTP to
// their replies sent, on the durable built-in host, beside the host
// alone) and reports its figures: orders/s, the ratio to the host alone
// (the goal is 0.7) and the bound on it that the host moving both mails
// of an order sets, and the process's CPU time per order, which a
// machine others share sways least.
func BenchmarkThroughput(b *testing.B) {
	const games, orders = 8, 200
	var ours, ratio, bound float64
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		var out bytes.Buffer
		a := servingApp(&out)
		if err := benchThroughput(a, games, orders); err != nil {
			b.Fatal(err)
		}
		m := regexp.MustCompile(`orders/s, SMTP in to reply sent\s+(\d+) /s\n\s+baseline\s+\d+ /s\n\s+ratio\s+([0-9.]+)`).FindStringSubmatch(out.String())
		if m == nil {
			b.Fatalf("no throughput figure:\n%s", out.String())
		}
		ours, _ = strconv.ParseFloat(m[1], 64)
		ratio, _ = strconv.ParseFloat(m[2], 64)
		if m := regexp.MustCompile(`so no pbem could pass ([0-9.]+) of it`).FindStringSubmatch(out.String()); m != nil {
			bound, _ = strconv.ParseFloat(m[1], 64)
		}
		n += 2 * orders // two rounds of ours (and two of each baseline, whose CPU is counted too)
	}
	b.ReportMetric(ours, "orders/s")
	b.ReportMetric(ratio, "ratio")
	b.ReportMetric(bound, "bound") // the host moving both mails of an order, over the baseline's one
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(n)/1e6, "cpu-ms/order")
}

// BenchmarkMailLatency runs the mail part (an order APPENDed to the game
// mailbox until its reply's mail.sent) and reports the latency above the
// IDLE floor, p50 and p99 (the goals are 5 ms and 20 ms).
func BenchmarkMailLatency(b *testing.B) {
	const orders = 50
	var p50, p99 time.Duration
	for b.Loop() {
		var out bytes.Buffer
		a := servingApp(&out)
		if err := benchMail(a, orders, "STATUS", mailTarget{}); err != nil {
			b.Fatal(err)
		}
		m := regexp.MustCompile(`above the floor: p50 (\S+), p99 (\S+) `).FindStringSubmatch(out.String())
		if m == nil {
			b.Fatalf("no latency figure:\n%s", out.String())
		}
		p50, _ = time.ParseDuration(m[1])
		p99, _ = time.ParseDuration(m[2])
	}
	b.ReportMetric(float64(p50)/1e6, "ms-p50-above-floor")
	b.ReportMetric(float64(p99)/1e6, "ms-p99-above-floor")
}

// servingApp is testApp with the configuration 'pbem serve' starts from
// (cmd/pbem's defaults), for the parts that run a server.
func servingApp(out io.Writer) *app {
	a := testApp(out)
	c := &a.cfg.Config
	c.Engine = server.EngineConfig{SnapshotEvery: 256, Clock: "30s"}
	c.Mail.FromName, c.Mail.RatePerHour = "pbem", 30
	c.Mail.IMAP.TLS, c.Mail.IMAP.Auth, c.Mail.IMAP.Mailbox, c.Mail.IMAP.Poll = "none", "login", "INBOX", "30s"
	c.Mail.SMTP.Auth = "plain"
	c.Metrics.StuckAfter = "5m"
	c.Cluster.Lease, c.Cluster.Replicas = "10s", 3
	c.Mail.DKIM, c.Mail.SenderAuth, c.Mail.ConfirmWithin, c.Mail.QuarantineMB = true, "confirm", "48h", 64
	c.Mail.UserSigners = server.DefaultUserSigners()
	a.cfg.Log.Format = "text"
	return a
}

package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"pbem/events"
	"pbem/store"
)

// Metrics are served in the Prometheus text format by
// github.com/prometheus/client_golang: the reference implementation of the
// format, maintained by the Prometheus project, what every scraper is
// tested against; its registry checks names and label sets, and its
// histograms and *Func collectors let pbem read most figures from the
// components' own state when scraped rather than count them twice.
type metrics struct {
	reg *prometheus.Registry

	orders     *prometheus.CounterVec // by outcome
	quarantine *prometheus.CounterVec // by reason
	decide     prometheus.Histogram
	load       prometheus.Histogram
	games      prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.orders = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pbem_orders_total",
		Help: "Inputs decided since start, by outcome: accepted or rejected."}, []string{"outcome"})
	m.quarantine = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pbem_mails_quarantined_total",
		Help: "Mails that could not become orders, since start, by reason."}, []string{"reason"})
	buckets := []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
	m.decide = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "pbem_decision_seconds",
		Help: "Time to decide one input, render its mails and append them.", Buckets: buckets})
	m.load = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "pbem_game_load_seconds",
		Help: "Time to load one game from its snapshot and tail.", Buckets: buckets})
	m.games = prometheus.NewGauge(prometheus.GaugeOpts{Name: "pbem_games", Help: "Games the server serves."})
	for _, o := range []string{"accepted", "rejected"} {
		m.orders.WithLabelValues(o)
	}
	m.reg.MustRegister(m.orders, m.quarantine, m.decide, m.load, m.games)
	return m
}

// timing is the runner's Timings hook.
func (m *metrics) timing(kind string, d time.Duration) {
	switch kind {
	case "load":
		m.load.Observe(d.Seconds())
	case "decide":
		m.decide.Observe(d.Seconds())
	}
}

// event counts what the server's subscription delivers.
func (m *metrics) event(e *events.Envelope) {
	switch e.Type {
	case events.TypeOrderAccepted:
		m.orders.WithLabelValues("accepted").Inc()
	case events.TypeOrderRejected:
		m.orders.WithLabelValues("rejected").Inc()
	case events.TypeGameCreated:
		m.games.Inc()
	}
}

// quarantineReasons turn the intake's reasons (sentences with details)
// into a few label values, so the label set stays small.
var quarantineReasons = []struct{ prefix, label string }{
	{"too large", "too_large"},
	{"unreadable", "unreadable"},
	{"automatic mail", "automatic"},
	{"no sender", "no_sender"},
	{"rate limited", "rate_limited"},
	{"no reply token", "no_token"},
	{"unknown game", "unknown_game"},
	{"reply token does not match", "bad_token"},
	{"sender ", "unregistered_sender"},
	{"referee command", "referee_secret"},
	{"Message-ID ", "reused_message_id"},   // the player was told
	{"not authenticated", "held_too_many"}, // more held orders than a player may have waiting
	{"mail refused", "notices_capped"},     // refused, the player told too often already
	{"order held", "notices_capped"},       // held, likewise
}

func quarantineLabel(reason string) string {
	for _, r := range quarantineReasons {
		if strings.HasPrefix(reason, r.prefix) {
			return r.label
		}
	}
	return "other"
}

// countingIntakeLog is the intake's log, counting quarantined mails.
type countingIntakeLog struct {
	intakeLog
	m *metrics
}

func (c countingIntakeLog) Quarantine(q store.Quarantined, cp store.Checkpoint) (string, error) {
	id, err := c.intakeLog.Quarantine(q, cp)
	if err == nil {
		c.m.quarantine.WithLabelValues(quarantineLabel(q.Reason)).Inc()
	}
	return id, err
}

// watch registers the running server's figures, read when scraped.
func (m *metrics) watch(st *store.Store, mail *mailSystem, active func() int) {
	counter := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
	}
	gauge := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
	}
	counter("pbem_events_appended_total", "Events appended to the log since start.", func() float64 { return float64(st.Stats().Events) })
	counter("pbem_store_commits_total", "Transactions committed (each one fsync) since start.", func() float64 { return float64(st.Stats().Commits) })
	counter("pbem_mails_taken_total", "Mails the intake committed since start (as orders or to the quarantine).",
		func() float64 { return float64(mail.intake.Status().Processed) })
	gauge("pbem_intake_lag_seconds", "Time since the intake last had every mail of the mailbox committed (it looks at least every mail.imap.poll).",
		func() float64 {
			if t := mail.intake.Status().CaughtUp; !t.IsZero() {
				return time.Since(t).Seconds()
			}
			return time.Since(mail.started).Seconds()
		})
	counter("pbem_mails_without_host_auth_results_total", "Mails that arrived without the receiving host's Authentication-Results on top while mail.authserv_id is set: the host seems not to add its field, so they count as unauthenticated.",
		func() float64 { return float64(mail.intake.Status().NoHostField) })
	gauge("pbem_intake_connected", "1 while the intake holds a session with the mailbox.", func() float64 {
		if mail.intake.Status().Connected {
			return 1
		}
		return 0
	})
	out := func() outboxFigures { return outboxStatus(mail) }
	gauge("pbem_outbox_queued", "Mails waiting to be sent or in flight.", func() float64 { return float64(out().queued) })
	gauge("pbem_outbox_retrying", "Waiting mails with at least one failed attempt.", func() float64 { return float64(out().retrying) })
	gauge("pbem_outbox_unrecorded", "Attempts made whose outcome the log has not taken yet (a failing store).", func() float64 { return float64(out().unrecorded) })
	gauge("pbem_outbox_oldest_age_seconds", "Age of the oldest waiting mail (0: none waits).", func() float64 { return out().oldest })
	counter("pbem_outbox_sent_total", "Mails sent since start.", func() float64 { return float64(out().sent) })
	counter("pbem_outbox_failed_attempts_total", "Delivery attempts that failed since start.", func() float64 { return float64(out().failed) })
	if mail.tokens != nil {
		counter("pbem_oauth_token_refreshes_total", "Access tokens obtained for the mailbox's OAuth logins since start.",
			func() float64 { return float64(mail.tokens.Status().Refreshes) })
		counter("pbem_oauth_token_failures_total", "Failed attempts to get an access token (refresh refused or failed, no token file) since start.",
			func() float64 { return float64(mail.tokens.Status().Failures) })
		gauge("pbem_oauth_needs_login", "1 while the provider refuses the stored refresh token (or there is none): run 'pbem mail login'.",
			func() float64 {
				if mail.tokens.Status().NeedsLogin {
					return 1
				}
				return 0
			})
	}
	gauge("pbem_games_loaded", "Games held in memory by the engine.", func() float64 { return float64(active()) })
}

type outboxFigures struct {
	queued, retrying, unrecorded int
	oldest                       float64
	sent, failed                 uint64
}

func outboxStatus(mail *mailSystem) outboxFigures {
	s := mail.sender.Status()
	f := outboxFigures{queued: s.Queued, retrying: s.Retrying, unrecorded: s.Unrecorded, sent: s.Sent, failed: s.Failed}
	if !s.Oldest.IsZero() {
		f.oldest = time.Since(s.Oldest).Seconds()
	}
	return f
}

// health says what is stuck, if anything: the outbox while the store has
// refused its outcomes, or SMTP has failed without a delivery, for longer
// than stuckAfter; the intake while it has had no session, or has not
// caught up with the mailbox, for that long.
func health(mail *mailSystem, stuckAfter time.Duration, now time.Time) []string {
	var bad []string
	o := mail.sender.Status()
	if !o.StoreFailingSince.IsZero() && now.Sub(o.StoreFailingSince) > stuckAfter {
		bad = append(bad, fmt.Sprintf("outbox: the log has refused to record deliveries for %s (%d mails waiting): %s",
			now.Sub(o.StoreFailingSince).Round(time.Second), o.Queued, o.LastError))
	}
	if !o.SMTPFailingSince.IsZero() && now.Sub(o.SMTPFailingSince) > stuckAfter {
		bad = append(bad, fmt.Sprintf("outbox: no mail delivered for %s while attempts fail (%d mails waiting): %s",
			now.Sub(o.SMTPFailingSince).Round(time.Second), o.Queued, o.LastError))
	}
	if mail.tokens != nil {
		// A refused refresh token needs the operator now, whatever
		// stuckAfter says: only a new login mends it.
		if t := mail.tokens.Status(); t.NeedsLogin || !t.FailingSince.IsZero() && now.Sub(t.FailingSince) > stuckAfter {
			bad = append(bad, fmt.Sprintf("oauth: no access token for the mailbox for %s: %s", now.Sub(t.FailingSince).Round(time.Second), t.LastError))
		}
	}
	in := mail.intake.Status()
	switch {
	case !in.FailingSince.IsZero() && now.Sub(in.FailingSince) > stuckAfter:
		bad = append(bad, fmt.Sprintf("intake: no working session with the mailbox for %s: %s", now.Sub(in.FailingSince).Round(time.Second), in.LastError))
	case in.CaughtUp.IsZero() && now.Sub(mail.started) > stuckAfter:
		bad = append(bad, fmt.Sprintf("intake: has not read the mailbox since the start, %s ago", now.Sub(mail.started).Round(time.Second)))
	case !in.CaughtUp.IsZero() && now.Sub(in.CaughtUp) > stuckAfter:
		bad = append(bad, fmt.Sprintf("intake: last caught up with the mailbox %s ago", now.Sub(in.CaughtUp).Round(time.Second)))
	}
	return bad
}

// healthWarnings says what the operator should mend though nothing is
// stuck: mail arriving without the receiving host's Authentication-Results
// (mail.authserv_id names a host that seems not to add its field).
func healthWarnings(mail *mailSystem) []string {
	var warn []string
	if in := mail.intake.Status(); in.NoHostField > 0 {
		warn = append(warn, fmt.Sprintf("warning: intake: %d mails arrived without the Authentication-Results of %s on top, the last at %s: the host seems not to add its field, so they count as unauthenticated (see the README, \"Mail from real people\")",
			in.NoHostField, mail.cfg.AuthServID, in.NoHostFieldLast.UTC().Format(time.RFC3339)))
	}
	return warn
}

// serveMetrics serves /metrics and /healthz on addr until ctx is done.
func serveMetrics(ctx context.Context, addr string, m *metrics, mail *mailSystem, stuckAfter time.Duration) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if bad := health(mail, stuckAfter, time.Now()); len(bad) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "stuck")
			for _, b := range append(bad, healthWarnings(mail)...) {
				fmt.Fprintln(w, b)
			}
			return
		}
		fmt.Fprintln(w, "ok")
		for _, b := range healthWarnings(mail) {
			fmt.Fprintln(w, b)
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	var once sync.Once
	go func() {
		<-ctx.Done()
		once.Do(func() { srv.Close() })
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			mail.lg.Error("metrics server stopped", "err", err)
		}
	}()
	return l.Addr().String(), nil
}

package bench

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"pbem/autoplay"
	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/internal/natscluster"
)

// testApp is what 'pbem bench' runs the measurements with, writing to
// out: every rule system, the default mail domain.
func testApp(out io.Writer) *app {
	systems := []engine.System{gcacw.System(), hra.System(), gbacw.System(), gmb.System()}
	var news []func() engine.Ruleset
	for _, s := range systems {
		news = append(news, s.New)
	}
	a := &app{reg: engine.NewRegistry(news...), out: out, errOut: io.Discard}
	a.cfg.Mail.Domain, a.cfg.Mail.Local = "pbem.localhost", "pbem"
	a.script = func(ruleset string) (autoplay.Script, error) {
		for _, s := range systems {
			if s.New().Name() == ruleset {
				return autoplay.DemoScript(s, a.cfg.Mail.Domain)
			}
		}
		return autoplay.Script{}, fmt.Errorf("rule system %q has no demo game", ruleset)
	}
	return a
}

// natsServer is the nats-server binary: $NATS_SERVER_BIN, else built.
func natsServer(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("NATS_SERVER_BIN"); p != "" {
		return p
	}
	out := filepath.Join(t.TempDir(), "nats-server")
	if b, err := exec.Command("go", "build", "-o", out, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("building nats-server: %v\n%s", err, b)
	}
	return out
}

// startNATSCluster runs three nats-server processes clustered with
// JetStream on loopback for the test (see natscluster.Start).
func startNATSCluster(t testing.TB) []*natscluster.Proc {
	t.Helper()
	procs, err := natscluster.Start(natsServer(t), t.TempDir(), os.Getenv("PBEM_BENCH_NATS_SYNC") == "default")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { natscluster.Stop(procs) })
	return procs
}

package server

import (
	"encoding/json"
	"testing"
	"time"
)

// The guard that checks forwarded commands, case by case: only a command
// sealed with the cluster's key, for this node, within the window and not
// seen before runs.
func TestClusterControlGuard(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1800000000, 0)
	good := func() ControlForward {
		return SealControl(key, ControlRequest{Cmd: "drain", Args: []string{"n2"}}, "n1", "n2", now)
	}
	for _, c := range []struct {
		name string
		f    func() ControlForward
		ok   bool
	}{
		{"sealed by a node", good, true},
		{"no MAC (any NATS client)", func() ControlForward {
			return ControlForward{ControlRequest: ControlRequest{Cmd: "drain", Args: []string{"n2"}}, Forwarded: true, To: "n2", Issued: now.UnixMilli()}
		}, false},
		{"another key", func() ControlForward {
			return SealControl([]byte("not the cluster's key"), ControlRequest{Cmd: "drain"}, "n1", "n2", now)
		}, false},
		{"arguments changed", func() ControlForward { f := good(); f.Args = []string{"n3"}; return f }, false},
		{"command changed", func() ControlForward { f := good(); f.Cmd = "referee"; return f }, false},
		{"for another node", func() ControlForward { return SealControl(key, ControlRequest{Cmd: "drain"}, "n1", "n3", now) }, false},
		{"issued long ago", func() ControlForward {
			return SealControl(key, ControlRequest{Cmd: "drain"}, "n1", "n2", now.Add(-time.Hour))
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &ctlGuard{key: key, node: "n2"}
			f := c.f()
			if err := g.check(&f, now); (err == nil) != c.ok {
				t.Fatalf("check: %v, want ok=%v", err, c.ok)
			}
		})
	}
	g := &ctlGuard{key: key, node: "n2"}
	f := good()
	if err := g.check(&f, now); err != nil {
		t.Fatal(err)
	}
	if err := g.check(&f, now.Add(time.Second)); err == nil {
		t.Fatal("a replayed command ran again")
	}

	// The answer: only one sealed by the node for this request is read.
	resp := ControlResponse{Out: "n2 drained\n"}
	sealedAnswer, _ := json.Marshal(ctlAnswer{ControlResponse: resp, MAC: answerMAC(key, f.Nonce, resp)})
	if got, err := openAnswer(key, &f, sealedAnswer); err != nil || got != resp {
		t.Fatalf("the node's answer: %+v %v", got, err)
	}
	other := good()
	for name, b := range map[string][]byte{
		"unsealed":                []byte(`{"out":"n2 drained\n"}`),
		"sealed with another key": must(json.Marshal(ctlAnswer{ControlResponse: resp, MAC: answerMAC([]byte("another key"), f.Nonce, resp)})),
		"output changed":          must(json.Marshal(ctlAnswer{ControlResponse: ControlResponse{Out: "all is well\n"}, MAC: answerMAC(key, f.Nonce, resp)})),
		"for another request":     must(json.Marshal(ctlAnswer{ControlResponse: resp, MAC: answerMAC(key, other.Nonce, resp)})),
	} {
		if got, err := openAnswer(key, &f, b); err == nil {
			t.Errorf("%s answer read: %+v", name, got)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

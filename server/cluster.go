package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/bus"
	"pbem/cluster"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/store"
)

// Node is the server's part in a cluster (cluster.node set): the node,
// and what its hooks reach once the server has wired everything (they
// wait for ready: a takeover may begin before the server is done
// starting).
type Node struct {
	*cluster.Node
	lg     *slog.Logger
	ready  chan struct{}
	st     *store.Store
	b      *bus.Bus
	sub    *bus.Subscription
	runner *play.Runner
	mail   *mailSystem
	subs   []*nats.Subscription
	lease  time.Duration
	guard  *ctlGuard // forwarded commands' authentication
	reg    *engine.Registry
	log    *Log // appends through the bus and this node (battle results handed here)
}

// joinCluster makes this server a node of the cluster at nats.urls: every
// append goes through the node (replicated, then committed), and the
// node's reply-token secret is the cluster's.
func (s *Server) joinCluster(ctx context.Context, b *bus.Bus, st *store.Store) (*Node, error) {
	cn := &Node{lg: s.lg, ready: make(chan struct{}), st: st, b: b, lease: s.cfg.Cluster.lease(), reg: s.reg}
	node, err := cluster.Open(ctx, b.Conn(), st, cluster.Config{Node: s.cfg.Cluster.Node, Lease: s.cfg.Cluster.lease(),
		Replicas: s.cfg.Cluster.Replicas, Logger: s.lg, Hooks: cluster.Hooks{
			Rebuild: func(game string, write func() (uint64, error)) error {
				<-cn.ready
				return cn.sub.Rebase(game, write)
			},
			Gained: func(game string) {
				go func() {
					<-cn.ready
					// A game being created is owned before its first event
					// is committed: there is nothing to load or resend yet,
					// and the runner wakes for it when that event lands.
					if h, err := cn.st.Head(game); err == nil && h.Seq == 0 {
						return
					}
					cn.runner.Kick(game)
					// The mails the previous owner left unsent go out again,
					// under the same Message-IDs (at least once).
					cn.mail.recover(cn.st, cn.runner, []string{game})
				}()
			},
			Lost: func(game string) {
				go func() {
					<-cn.ready
					cn.runner.Drop(game)
					cn.mail.sender.CancelGame(game)
				}()
			},
		}})
	if err != nil {
		return nil, err
	}
	cn.Node = node
	b.SetAppender(node)
	shared, err := node.SharedSecret(ReplySecretName, func() ([]byte, error) { return st.ServerSecret(ReplySecretName, NewSecret) })
	if err != nil {
		node.Close()
		return nil, err
	}
	local, err := st.ServerSecret(ReplySecretName, func() ([]byte, error) { return shared, nil })
	if err != nil {
		node.Close()
		return nil, err
	}
	if !bytes.Equal(local, shared) {
		node.Close()
		return nil, fmt.Errorf("cluster: this data directory keys reply tokens with a secret of its own, not the cluster's: a node joins with a new data directory")
	}
	key, err := node.SharedSecret(ctlKeyName, NewSecret)
	if err != nil {
		node.Close()
		return nil, err
	}
	cn.guard = &ctlGuard{key: key, node: node.Name()}
	return cn, nil
}

// start wires the node to the running server and answers the other
// nodes' requests: mails and commands handed to this node.
func (cn *Node) start(sub *bus.Subscription, log *Log, runner *play.Runner, mail *mailSystem, control func(ControlRequest, bool) ControlResponse) error {
	cn.sub, cn.log, cn.runner, cn.mail = sub, log, runner, mail
	mail.intake.SetRoute(cn.route)
	mail.intake.SetKnown(cn.Known)
	for kind, h := range map[string]nats.MsgHandler{
		"mail": func(m *nats.Msg) { go cn.onMail(m) }, // one game's slow commit holds up no other's
		"ctl":  func(m *nats.Msg) { cn.onControl(m, control) },
		"link": func(m *nats.Msg) { go cn.onLink(m) }, // a campaign's slow commit holds up no other's
	} {
		s, err := cn.Conn().Subscribe(cluster.NodeSubject(cn.Name(), kind), h)
		if err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		cn.subs = append(cn.subs, s)
	}
	close(cn.ready)
	return nil
}

// close hands the node's games back (their leases released, so other
// nodes take them at once) and leaves the cluster.
func (cn *Node) close() {
	for _, s := range cn.subs {
		s.Unsubscribe()
	}
	cn.subs = nil
	cn.Node.Close()
	cn.Release()
}

// route hands a mail for a game another node owns to that node, once
// (the intake's queue for the game offers it again while this fails),
// and says handled once the owner has committed it.
func (cn *Node) route(game string, raw []byte) (bool, error) {
	return cn.HandMail(game, raw, max(cn.lease, 5*time.Second))
}

// onMail takes a mail another node's intake handed over: judged and
// committed here as if read here; "ok" only once it is durable.
func (cn *Node) onMail(m *nats.Msg) {
	<-cn.ready
	in := cn.mail.intake
	// Taken here only if this node holds the game now: never handed on
	// again, nor judged while the game is being rebuilt here.
	if game, _, ok := in.Addressed(m.Data); ok {
		if owner, err := cn.MailOwner(game); err != nil || owner != cn.Name() {
			m.Respond([]byte(fmt.Sprintf("error: not taken on %s (owner %q): %v", cn.Name(), owner, err)))
			return
		}
	}
	// Every node reads the mailbox: a mail already taken is answered at
	// once, without counting against its sender's rate.
	if game, key, ok := in.Addressed(m.Data); ok {
		if _, dup, err := cn.st.Lookup(game, key); err == nil && dup {
			m.Respond([]byte("ok"))
			return
		}
	}
	if err := in.Take(m.Data, "", store.Checkpoint{}); err != nil {
		m.Respond([]byte("error: " + err.Error()))
		return
	}
	m.Respond([]byte("ok"))
}

func (cn *Node) onControl(m *nats.Msg, control func(ControlRequest, bool) ControlResponse) {
	<-cn.ready
	var req ControlForward
	ans := ctlAnswer{}
	if err := json.Unmarshal(m.Data, &req); err != nil {
		ans.Err = errCtlRefused.Error()
	} else if err := cn.guard.check(&req, time.Now()); err != nil {
		cn.lg.Warn("a forwarded control command refused", "cmd", req.Cmd, "from", req.From, "err", err)
		ans.Err = err.Error()
	} else {
		ans.ControlResponse = control(req.ControlRequest, true)
		ans.MAC = answerMAC(cn.guard.key, req.Nonce, ans.ControlResponse)
	}
	b, _ := json.Marshal(ans)
	m.Respond(b)
}

// Forward hands the command req to node to, and returns its answer once
// that node has run it (authenticated both ways: see SealControl).
func (cn *Node) Forward(req ControlRequest, to string) (ControlResponse, error) {
	f := SealControl(cn.guard.key, req, cn.Name(), to, time.Now())
	b, _ := json.Marshal(f)
	msg, err := cn.Conn().Request(cluster.NodeSubject(to, "ctl"), b, 2*time.Minute)
	if err != nil {
		return ControlResponse{}, fmt.Errorf("handing the command to node %s: %w", to, err)
	}
	resp, err := openAnswer(cn.guard.key, &f, msg.Data)
	if err != nil {
		return ControlResponse{}, fmt.Errorf("node %s: %w", to, err)
	}
	return resp, nil
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/bus"
	"pbem/cluster"
	"pbem/engine/play"
	"pbem/store"
)

// clusterNode is serve's part in a cluster (cluster.node set): the node,
// and what its hooks reach once serve has wired everything (they wait
// for ready: a takeover may begin before serve is done starting).
type clusterNode struct {
	*cluster.Node
	ready  chan struct{}
	st     *store.Store
	b      *bus.Bus
	sub    *bus.Subscription
	runner *play.Runner
	mail   *mailSystem
	subs   []*nats.Subscription
	lease  time.Duration
	guard  *ctlGuard // forwarded commands' authentication
}

// joinCluster makes this server a node of the cluster at nats.urls: every
// append goes through the node (replicated, then committed), and the
// node's reply-token secret is the cluster's.
func joinCluster(ctx context.Context, a *app, b *bus.Bus, st *store.Store) (*clusterNode, error) {
	cn := &clusterNode{ready: make(chan struct{}), st: st, b: b, lease: a.cfg.Cluster.lease()}
	node, err := cluster.Open(ctx, b.Conn(), st, cluster.Config{Node: a.cfg.Cluster.Node, Lease: a.cfg.Cluster.lease(),
		Replicas: a.cfg.Cluster.Replicas, Logger: a.lg, Hooks: cluster.Hooks{
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
					cn.mail.recover(cn.b, cn.runner, []string{game})
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
	shared, err := node.SharedSecret(replySecretName, func() ([]byte, error) { return st.ServerSecret(replySecretName, newSecret) })
	if err != nil {
		node.Close()
		return nil, err
	}
	local, err := st.ServerSecret(replySecretName, func() ([]byte, error) { return shared, nil })
	if err != nil {
		node.Close()
		return nil, err
	}
	if !bytes.Equal(local, shared) {
		node.Close()
		return nil, fmt.Errorf("cluster: this data directory keys reply tokens with a secret of its own, not the cluster's: a node joins with a new data directory")
	}
	key, err := node.SharedSecret(ctlKeyName, newSecret)
	if err != nil {
		node.Close()
		return nil, err
	}
	cn.guard = &ctlGuard{key: key, node: node.Name()}
	return cn, nil
}

// start wires the node to the running server and answers the other
// nodes' requests: mails and commands handed to this node.
func (cn *clusterNode) start(a *app, sub *bus.Subscription, runner *play.Runner, mail *mailSystem, ctl *app) error {
	cn.sub, cn.runner, cn.mail = sub, runner, mail
	mail.intake.SetRoute(cn.route)
	mail.intake.SetKnown(cn.Known)
	for kind, h := range map[string]nats.MsgHandler{
		"mail": func(m *nats.Msg) { go cn.onMail(m) }, // one game's slow commit holds up no other's
		"ctl":  func(m *nats.Msg) { cn.onControl(m, ctl) },
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
func (cn *clusterNode) close() {
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
func (cn *clusterNode) route(game string, raw []byte) (bool, error) {
	return cn.HandMail(game, raw, max(cn.lease, 5*time.Second))
}

// onMail takes a mail another node's intake handed over: judged and
// committed here as if read here; "ok" only once it is durable.
func (cn *clusterNode) onMail(m *nats.Msg) {
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

func (cn *clusterNode) onControl(m *nats.Msg, base *app) {
	<-cn.ready
	var req ctlForward
	ans := ctlAnswer{}
	if err := json.Unmarshal(m.Data, &req); err != nil {
		ans.Err = errCtlRefused.Error()
	} else if err := cn.guard.check(&req, time.Now()); err != nil {
		base.lg.Warn("a forwarded control command refused", "cmd", req.Cmd, "from", req.From, "err", err)
		ans.Err = err.Error()
	} else {
		ans.ctlResponse = base.control(req.ctlRequest, true)
		ans.MAC = answerMAC(cn.guard.key, req.Nonce, ans.ctlResponse)
	}
	b, _ := json.Marshal(ans)
	m.Respond(b)
}

// forward runs the command a runs on node, and writes what it says.
func (a *app) forward(node string) error {
	req := sealCtl(a.node.guard.key, a.ctl, a.node.Name(), node, time.Now())
	b, _ := json.Marshal(req)
	msg, err := a.node.Conn().Request(cluster.NodeSubject(node, "ctl"), b, 2*time.Minute)
	if err != nil {
		return fmt.Errorf("handing the command to node %s: %w", node, err)
	}
	resp, err := openAnswer(a.node.guard.key, &req, msg.Data)
	if err != nil {
		return fmt.Errorf("node %s: %w", node, err)
	}
	fmt.Fprint(a.out, resp.Out)
	if resp.Err != "" {
		return fmt.Errorf("on node %s: %s", node, resp.Err)
	}
	return nil
}

// forwarded is a command's outcome on the node it was handed to.
type forwarded struct{ err error }

func (f *forwarded) Error() string {
	if f.err == nil {
		return "ran on another node"
	}
	return f.err.Error()
}

// toOwner hands the running command to game's owner when that is another
// node (a game this node does not know runs here, and says so).
func (a *app) toOwner(game string) error {
	if a.node == nil || a.forwardedHere {
		return nil
	}
	owner := a.node.Owner(game)
	if owner == "" || owner == a.node.Name() {
		return nil
	}
	return &forwarded{a.forward(owner)}
}

// cmdMove hands a game to another node.
func cmdMove(a *app, fs *flag.FlagSet, args []string) error {
	to := fs.String("to", "", "the node to move the game to")
	game, err := a.gameArg(fs, args)
	if err != nil {
		return err
	}
	if *to == "" {
		return fmt.Errorf("%w: need --to NODE", errUsage)
	}
	if a.node == nil {
		return errNoCluster
	}
	if err := a.node.Move(game, *to); err != nil {
		return err
	}
	fmt.Fprintf(a.out, "%s moved from %s to %s\n", game, a.node.Name(), *to)
	return nil
}

var errNoCluster = errors.New("this command needs a running 'pbem serve' that is a node of a cluster (cluster.node)")

// cmdDrain moves every game off a node and keeps new ones away from it.
func cmdDrain(a *app, fs *flag.FlagSet, args []string) error {
	undo := fs.Bool("undo", false, "let the node take games again")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if a.node == nil {
		return errNoCluster
	}
	if name := pos[0]; name != a.node.Name() && !a.forwardedHere {
		return &forwarded{a.forward(name)}
	}
	if *undo {
		if err := a.node.Undrain(); err != nil {
			return err
		}
		fmt.Fprintf(a.out, "%s takes games again\n", a.node.Name())
		return nil
	}
	moved, err := a.node.Drain()
	for _, m := range moved {
		fmt.Fprintln(a.out, "moved", m)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "%s drained: %d game(s) moved; it takes no new games ('pbem drain %s --undo' to end that)\n", a.node.Name(), len(moved), a.node.Name())
	return nil
}

// clusterGames prints the cluster's nodes and every game's owner.
func (a *app) clusterGames() {
	ms := a.node.Members()
	fmt.Fprintf(a.out, "cluster: %d node(s), this one %s\n", len(ms), a.node.Name())
	for _, m := range ms {
		state := "alive"
		if !m.Alive {
			state = "gone"
		}
		if m.Draining {
			state += ", draining"
		}
		fmt.Fprintf(a.out, "  node %-12s %-16s %d game(s)\n", m.Name, state, m.Games)
	}
	ls := a.node.Leases()
	nodes := map[string]cluster.NodeState{}
	for _, m := range ms {
		nodes[m.Name] = m
	}
	fmt.Fprintf(a.out, "%d game(s) in the cluster:\n", len(ls))
	for _, l := range ls {
		// The owner's node lease, as this node's clock sees it: a game
		// has no lease of its own.
		owner, state := l.Node, "lease "+nodes[l.Node].LeaseLeft.Round(100*time.Millisecond).String()+" (its node's)"
		switch {
		case l.Node == "" && l.To != "":
			owner, state = "-", "being handed to "+l.To
		case l.Node == "":
			owner, state = "-", "released: being taken over"
		case !nodes[l.Node].Alive:
			state = "node lapsed: being taken over"
		}
		fmt.Fprintf(a.out, "  %-20s owner %-12s epoch %-4d %s\n", l.Game, owner, l.Epoch, state)
	}
	fmt.Fprintln(a.out)
}

// ownedOnly keeps the games this node owns (its store may hold stale
// copies of games that moved away).
func (a *app) ownedOnly(ds []play.Desk) []play.Desk {
	if a.node == nil {
		return ds
	}
	var out []play.Desk
	for _, d := range ds {
		if a.node.Owns(d.Game) {
			out = append(out, d)
		}
	}
	return out
}

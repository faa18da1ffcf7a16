package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"pbem/cluster"
	"pbem/engine/play"
	"pbem/events"
	"pbem/report"
)

// forward runs the command a runs on node, and writes what it says.
func (a *app) forward(node string) error {
	resp, err := a.node.Forward(a.ctl, node)
	if err != nil {
		return err
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

// linkedVerifyLog is the log pbem verify reads on a node of a cluster:
// the game's own from this node, the games it is linked with from
// wherever the cluster has them (server.Node.LinkedLog).
type linkedVerifyLog struct {
	report.VerifyLog
	links play.LogReader
}

func (l linkedVerifyLog) Read(game string, from uint64, fn func(*events.Envelope) error) error {
	return l.links.Read(game, from, fn)
}

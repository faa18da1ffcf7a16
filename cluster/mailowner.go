package cluster

import (
	"fmt"
	"time"
)

// NotReadyError says a game's mail cannot be taken now: the game exists
// (it has an owner record) but no node has it loaded and answering yet
// (it is being taken over, handed over, or its owner's lease has lapsed
// and a takeover is coming). The mail waits and is offered again; it is
// never judged against a node that does not hold the game.
type NotReadyError struct {
	Game, Owner string
	Reason      string
}

func (e *NotReadyError) Error() string {
	s := fmt.Sprintf("game %s is not ready", e.Game)
	if e.Owner != "" {
		s += " (owner " + e.Owner + ")"
	}
	return s + ": " + e.Reason
}

// MailOwner says where a mail for game is taken now: "" for a game the
// cluster does not know (judged where it was read, as an unknown game),
// this node's name for a game this node holds (rebuilt, fenced and
// answering), another node's name for a game a live node owns (or is
// being handed to). A game the cluster knows that no node can take now
// gives a *NotReadyError: this node is taking it over and has not
// rebuilt it yet, its owner's lease has lapsed (a takeover is coming),
// or it was released and is being taken.
func (n *Node) MailOwner(game string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.owned[game] != nil {
		return n.name, nil
	}
	e, ok := n.view[game]
	switch {
	case !ok:
		return "", nil
	case e.Node == "" && e.To != "":
		return e.To, nil // handed to To, which takes it in a moment
	case e.Node == "":
		return "", &NotReadyError{Game: game, Reason: "released; another node is taking it"}
	case e.Node == n.name:
		return "", &NotReadyError{Game: game, Owner: n.name, Reason: "this node is taking it over (rebuilding it from the stream)"}
	case !n.aliveLocked(e.Node, time.Now()):
		return "", &NotReadyError{Game: game, Owner: e.Node, Reason: "its owner's lease has lapsed; a takeover is coming"}
	}
	return e.Node, nil
}

// Known reports whether the cluster has game: an owner record for it
// has been seen (whether or not this node has it).
func (n *Node) Known(game string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	_, ok := n.view[game]
	return ok || n.owned[game] != nil
}

// HandMail offers a mail for game to the node that takes it now, once:
// false (and no error) when that is this node, or no node (a game the
// cluster does not know), so the mail is judged here; true once another
// node answered that it committed the mail (replicated and fsynced). An
// error means the mail was not taken (the game is not ready, the owner
// did not answer within wait, or refused): offer it again later. The
// owner answers on NodeSubject(owner, "mail") with "ok" or the error.
func (n *Node) HandMail(game string, raw []byte, wait time.Duration) (bool, error) {
	owner, err := n.MailOwner(game)
	if err != nil {
		return false, err
	}
	if owner == "" || owner == n.name {
		return false, nil
	}
	resp, err := n.nc.Request(NodeSubject(owner, "mail"), raw, wait)
	if err != nil {
		return false, fmt.Errorf("handing a mail for %s to node %s: %w", game, owner, err)
	}
	if s := string(resp.Data); s != "ok" {
		return false, fmt.Errorf("node %s: %s", owner, s)
	}
	return true, nil
}

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/cluster"
	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// A campaign and its battles in a cluster (engine/play/link.go): the
// campaign and a battle may be held by different nodes, and either may
// change hands at any time. A battle's result is an input of its
// campaign, and only the node holding a game appends to it, so the node
// holding the ended battle hands the result to the node holding the
// campaign, as the intake hands a mail to the node holding its game: a
// request on that node's subject "link", answered only once the result
// is in the campaign's log (replicated to the stream and committed), or
// was there already. The result is keyed by its battle and final hash
// (play.ResultKey): whoever holds the campaign, after any number of
// takeovers, takes it once, and the stream carries that key to the next
// holder. Until the answer comes, the battle's actor tries again (its
// game.ended is the intent, durable in the stream: a node that takes the
// battle over after a crash loads it and tries again).
//
// A battle's result is an operator's command in its campaign: NATS
// credentials alone must not be enough to send one. The request is
// sealed like a forwarded control command (clusterctl.go), under the
// cluster's control key, for the one node it is sent to, and so is the
// answer.

// linkResultCmd names a battle's result handed to a campaign's node, in
// the sealed request (never a control command: the subject "link" runs
// nothing else, and "ctl" knows no such command).
const linkResultCmd = "battle-result"

// linkAbandonCmd names the abandon of a battle (its campaign was rolled
// back past its assault) handed to the battle's node, in the sealed
// request, like linkResultCmd.
const linkAbandonCmd = "battle-abandon"

// linkWithdrawCmd names the withdrawal of a battle's result from its
// campaign (the battle was rolled back past its end) handed to the
// campaign's node, in the sealed request, like linkResultCmd.
const linkWithdrawCmd = "battle-withdraw"

// errStopRead stops a read of a log early.
var errStopRead = errors.New("stop reading")

// linkWait bounds the wait for the campaign's node to answer.
func (cn *Node) linkWait() time.Duration { return max(cn.lease, 5*time.Second) }

// handResult hands the battle result r to the node holding its campaign
// (play.Links.Hand): false when that is this node, or the cluster does
// not know the campaign, so it is taken here; true once that node has it
// in the campaign's log. An error (the campaign is changing hands, its
// node is dead or did not answer) leaves it to be tried again.
func (cn *Node) handResult(r play.Result) (bool, error) {
	return cn.hand(r.Campaign, "the result of battle "+r.End.Game, linkResultCmd, "result", r)
}

// handAbandon hands the abandon ab of a battle a rollback of its campaign
// closed the assault of to the node holding the battle
// (play.Links.HandAbandon): false when that is this node, or the cluster
// does not know the battle, so it is appended here (or found never
// opened); true once that node has it in the battle's log, or the battle
// is over. An error leaves it to be tried again: the campaign's actor
// hands it again at each tick, and after a restart or a takeover, since
// the campaign's rollback is in its log.
func (cn *Node) handAbandon(ab play.Abandonment) (bool, error) {
	return cn.hand(ab.Battle, "the abandon of battle "+ab.Battle, linkAbandonCmd, "abandon", ab)
}

// handWithdraw hands the withdrawal w a battle's rollback owes its
// campaign to the node holding the campaign (play.Links.HandWithdraw):
// false when that is this node, or the cluster does not know the
// campaign, so it is taken here; true once that node has it in the
// campaign's log, or owes none. An error leaves it to be tried again.
func (cn *Node) handWithdraw(w play.Withdrawal) (bool, error) {
	return cn.hand(w.Campaign, "the withdrawal of battle "+w.Battle+"'s result", linkWithdrawCmd, "withdraw", w)
}

// hand sends v, sealed as cmd, to the node holding game, and waits for
// its answer: false, nil when that is this node or no node.
func (cn *Node) hand(game, what, cmd, file string, v any) (bool, error) {
	select {
	case <-cn.ready:
	case <-time.After(cn.linkWait()):
		return false, errors.New("this node is not serving yet")
	}
	owner, err := cn.MailOwner(game)
	if err != nil {
		return false, err
	}
	if owner == "" || owner == cn.Name() {
		return false, nil
	}
	body, err := json.Marshal(v)
	if err != nil {
		return false, err
	}
	f := SealControl(cn.guard.key, ControlRequest{Cmd: cmd, Files: map[string][]byte{file: body}}, cn.Name(), owner, time.Now())
	b, _ := json.Marshal(f)
	msg, err := cn.Conn().Request(cluster.NodeSubject(owner, "link"), b, cn.linkWait())
	if err != nil {
		return false, fmt.Errorf("handing %s to node %s: %w", what, owner, err)
	}
	resp, err := openAnswer(cn.guard.key, &f, msg.Data)
	if err != nil {
		return false, fmt.Errorf("node %s: %w", owner, err)
	}
	if resp.Err != "" {
		return false, fmt.Errorf("node %s: %s", owner, resp.Err)
	}
	return true, nil
}

// onLink takes a battle's result another node handed over: appended to
// the campaign, if this node holds it, and answered only once durable.
func (cn *Node) onLink(m *nats.Msg) {
	<-cn.ready
	var req ControlForward
	if err := json.Unmarshal(m.Data, &req); err != nil {
		b, _ := json.Marshal(ctlAnswer{ControlResponse: ControlResponse{Err: errCtlRefused.Error()}})
		m.Respond(b)
		return
	}
	if err := cn.guard.check(&req, time.Now()); err != nil || req.Cmd != linkResultCmd && req.Cmd != linkAbandonCmd && req.Cmd != linkWithdrawCmd {
		cn.lg.Warn("a battle result handed over refused", "cmd", req.Cmd, "from", req.From, "err", err)
		b, _ := json.Marshal(ctlAnswer{ControlResponse: ControlResponse{Err: errCtlRefused.Error()}})
		m.Respond(b)
		return
	}
	// Taking it reads the game and calls its rule system, guarded as
	// every other call into one: a panic there is this game's error, not
	// the end of the node (this runs on the NATS client's goroutine).
	var resp ControlResponse
	if err := engine.Guard("taking a linked game's hand-off", func() error {
		switch req.Cmd {
		case linkAbandonCmd:
			resp = cn.takeAbandon(req.Files["abandon"])
		case linkWithdrawCmd:
			resp = cn.takeWithdraw(req.Files["withdraw"])
		default:
			resp = cn.takeResult(req.Files["result"])
		}
		return nil
	}); err != nil {
		cn.lg.Error("a linked game's hand-off panicked; its node hands it again", "cmd", req.Cmd, "err", err, "stack", engine.PanicStack(err))
		resp = ControlResponse{Err: "the game could not take it"}
	}
	b, _ := json.Marshal(ctlAnswer{ControlResponse: resp, MAC: answerMAC(cn.guard.key, req.Nonce, resp)})
	m.Respond(b)
}

// takeResult appends a battle's result handed over to its campaign, if
// this node holds the campaign now (rebuilt, fenced and answering): a
// node that does not, or no longer does, says so, and the battle's node
// hands it again, to whoever holds the campaign then.
func (cn *Node) takeResult(body []byte) ControlResponse {
	var r play.Result
	if err := json.Unmarshal(body, &r); err != nil || r.Campaign == "" || r.End.Game == "" {
		return ControlResponse{Err: fmt.Sprintf("not a battle's result: %v", err)}
	}
	if owner, err := cn.MailOwner(r.Campaign); err != nil || owner != cn.Name() {
		return ControlResponse{Err: fmt.Sprintf("campaign %s is not held by %s (owner %q): %v", r.Campaign, cn.Name(), owner, err)}
	}
	lg := cn.lg.With("game", r.Campaign, "battle", r.End.Game)
	e, err := play.TakeResult(cn.log, cn.reg, r)
	if err != nil {
		lg.Warn("taking a battle's result handed over failed; its node hands it again", "err", err)
		return ControlResponse{Err: err.Error()}
	}
	if e != nil {
		lg.Info("battle result taken from the node holding the battle", "seq", e.Seq)
		cn.runner.Deliver(e)
	}
	return ControlResponse{Out: "ok"}
}

// takeWithdraw appends the withdrawal of a battle's result handed over
// to its campaign, if this node holds the campaign now: a node that does
// not says so, and the battle's node hands it again, to whoever holds the
// campaign then. It answers "ok" only once the withdrawal is durable in
// the campaign's log, or was there already, or none is owed; a campaign
// yet to decide the result (or the withdrawal) answers an error, and the
// battle's node asks again.
func (cn *Node) takeWithdraw(body []byte) ControlResponse {
	var w play.Withdrawal
	if err := json.Unmarshal(body, &w); err != nil || w.Campaign == "" || w.Battle == "" {
		return ControlResponse{Err: fmt.Sprintf("not a battle's withdrawal: %v", err)}
	}
	if owner, err := cn.MailOwner(w.Campaign); err != nil || owner != cn.Name() {
		return ControlResponse{Err: fmt.Sprintf("campaign %s is not held by %s (owner %q): %v", w.Campaign, cn.Name(), owner, err)}
	}
	lg := cn.lg.With("game", w.Campaign, "battle", w.Battle)
	e, err := play.TakeWithdrawal(cn.log, cn.reg, w)
	if err != nil {
		lg.Info("withdrawing a battle's result handed over: not yet; its node hands it again", "err", err)
		return ControlResponse{Err: err.Error()}
	}
	if e != nil {
		lg.Info("battle result withdrawn at the request of the node holding the battle", "seq", e.Seq)
		cn.runner.Deliver(e)
	}
	return ControlResponse{Out: "ok"}
}

// takeAbandon appends the abandon of a battle handed over to the battle,
// if this node holds it now: a node that does not says so, and the
// campaign's node hands it again, to whoever holds the battle then. It
// answers "ok" only once the abandon is durable in the battle's log, or
// was there already, or the battle is over.
func (cn *Node) takeAbandon(body []byte) ControlResponse {
	var ab play.Abandonment
	if err := json.Unmarshal(body, &ab); err != nil || ab.Battle == "" || ab.Key == "" {
		return ControlResponse{Err: fmt.Sprintf("not a battle's abandon: %v", err)}
	}
	if owner, err := cn.MailOwner(ab.Battle); err != nil || owner != cn.Name() {
		return ControlResponse{Err: fmt.Sprintf("battle %s is not held by %s (owner %q): %v", ab.Battle, cn.Name(), owner, err)}
	}
	// Held here but not in this node's log (yet): never answered "ok",
	// which would lose the abandon; the campaign's node asks again.
	held := false
	_ = cn.log.Read(ab.Battle, 1, func(*events.Envelope) error { held = true; return errStopRead })
	if !held {
		return ControlResponse{Err: fmt.Sprintf("battle %s is not in the log of %s yet", ab.Battle, cn.Name())}
	}
	lg := cn.lg.With("game", ab.Battle, "campaign", ab.Campaign)
	e, err := play.AbandonBattle(cn.log, cn.reg, ab)
	if err != nil {
		lg.Warn("abandoning a battle as its campaign's node asked failed; that node hands it again", "err", err)
		return ControlResponse{Err: err.Error()}
	}
	if e != nil {
		lg.Info("battle abandoned at the request of the node holding its campaign", "seq", e.Seq)
		cn.runner.Deliver(e)
	}
	return ControlResponse{Out: "ok"}
}

// LinkedLog reads game's own log from local, and every other game this
// node does not hold (a campaign's battles, a battle's campaign) from the
// cluster's stream: another node may hold it, and this node's store may
// have none of it, or an old copy. For checking a game's links (pbem
// verify).
func (cn *Node) LinkedLog(local play.LogReader, game string) play.LogReader {
	return linkedLog{local: local, game: game, cn: cn}
}

type linkedLog struct {
	local play.LogReader
	game  string
	cn    *Node
}

func (l linkedLog) Read(game string, from uint64, fn func(*events.Envelope) error) error {
	if game == l.game || l.cn.Owns(game) {
		return l.local.Read(game, from, fn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return l.cn.ReadStream(ctx, game, from, fn)
}

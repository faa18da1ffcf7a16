package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Commands handed from one node to another over NATS are referee and
// operator commands: NATS credentials alone must not be enough to send
// one (a player may hold credentials to the bus). Each carries an
// HMAC-SHA256 under the cluster's control key, made by the first node and
// kept in the bucket pbem_shared, which only the nodes' NATS permissions
// may read (see README). The MAC binds the whole request (command,
// arguments, whatever else it carries), the node it is for, a nonce and
// when it was issued: a command captured on
// the wire cannot be sent to another node, nor run twice.
const ctlKeyName = "cluster-control-key"

// ctlWindow bounds how far an issued time may be from the receiver's
// clock. It is a replay window only (a node refuses a command outside it,
// which is safe), never a lease: nodes' clocks are assumed within NTP's
// reach of each other here, and nowhere else.
const ctlWindow = 2 * time.Minute

// A command handed to another node carries Forwarded, so that it runs
// there whatever that node thinks of the game, and its authentication.
type ControlForward struct {
	ControlRequest
	Forwarded bool   `json:"forwarded"`
	From      string `json:"from"`
	To        string `json:"to"`
	Nonce     string `json:"nonce"`
	Issued    int64  `json:"issued"` // unix milliseconds, the sender's clock
	MAC       string `json:"mac"`
}

// ctlMAC is the MAC of f under key: the whole request (every field
// ControlRequest has or will have, files included) and the sealing fields.
func ctlMAC(key []byte, f *ControlForward) string {
	m := hmac.New(sha256.New, key)
	b, _ := json.Marshal(struct {
		Req    ControlRequest `json:"req"`
		From   string         `json:"from"`
		To     string         `json:"to"`
		Nonce  string         `json:"nonce"`
		Issued int64          `json:"issued"`
	}{f.ControlRequest, f.From, f.To, f.Nonce, f.Issued})
	m.Write([]byte("pbem forwarded control command v1\n"))
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// SealControl makes the authenticated request for req, from node from to node to.
func SealControl(key []byte, req ControlRequest, from, to string, now time.Time) ControlForward {
	nonce := make([]byte, 16)
	rand.Read(nonce)
	f := ControlForward{ControlRequest: req, Forwarded: true, From: from, To: to, Nonce: hex.EncodeToString(nonce), Issued: now.UnixMilli()}
	f.MAC = ctlMAC(key, &f)
	return f
}

// ctlGuard checks forwarded commands arriving at one node: the MAC, the
// node named, the time window, and that the nonce is new.
type ctlGuard struct {
	key  []byte
	node string
	mu   sync.Mutex
	seen map[string]time.Time // nonce -> when it stops mattering
}

var errCtlRefused = errors.New("refused: not an authenticated command of this cluster's nodes")

func (g *ctlGuard) check(f *ControlForward, now time.Time) error {
	if f.MAC == "" || !hmac.Equal([]byte(f.MAC), []byte(ctlMAC(g.key, f))) {
		return errCtlRefused
	}
	if f.To != g.node {
		return fmt.Errorf("%w (it is for node %s)", errCtlRefused, f.To)
	}
	issued := time.UnixMilli(f.Issued)
	if d := now.Sub(issued); d > ctlWindow || d < -ctlWindow {
		return fmt.Errorf("%w (issued %v from this node's clock)", errCtlRefused, d.Round(time.Second))
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seen == nil {
		g.seen = map[string]time.Time{}
	}
	for n, until := range g.seen {
		if now.After(until) {
			delete(g.seen, n)
		}
	}
	if _, dup := g.seen[f.Nonce]; dup {
		return fmt.Errorf("%w (a replay)", errCtlRefused)
	}
	g.seen[f.Nonce] = issued.Add(2 * ctlWindow)
	return nil
}

// ctlAnswer is a node's answer to a forwarded command, sealed under the
// same key and bound to the request's nonce, so that a client listening
// on the control subjects cannot answer in a node's place (with made-up
// output) before the node does. An answer to a refused request is not
// sealed.
type ctlAnswer struct {
	ControlResponse
	MAC string `json:"mac,omitempty"`
}

func answerMAC(key []byte, nonce string, r ControlResponse) string {
	m := hmac.New(sha256.New, key)
	b, _ := json.Marshal(struct {
		Nonce string          `json:"nonce"`
		Resp  ControlResponse `json:"resp"`
	}{nonce, r})
	m.Write([]byte("pbem forwarded control answer v1\n"))
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// openAnswer returns the answer in b to the request f, if it is sealed
// for it.
func openAnswer(key []byte, f *ControlForward, b []byte) (ControlResponse, error) {
	var a ctlAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return ControlResponse{}, err
	}
	if a.MAC == "" {
		if a.Err != "" {
			return ControlResponse{}, fmt.Errorf("an answer not sealed by the node: %s", a.Err)
		}
		return ControlResponse{}, errors.New("an answer not sealed by the node")
	}
	if !hmac.Equal([]byte(a.MAC), []byte(answerMAC(key, f.Nonce, a.ControlResponse))) {
		return ControlResponse{}, errors.New("an answer whose seal is not the node's")
	}
	return a.ControlResponse, nil
}

package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/events"
)

// readBatch is how many messages one batched read asks for.
const readBatch = 512

// readSubject calls fn for every message of game's subject in the stream,
// in order, up to and including the stream sequence last (the subject's
// last message, read from the stream's leader beforehand).
//
// It reads with JetStream's batched direct get (one request answers up to
// readBatch messages of the subject, then an end-of-batch status), not
// one request per message (a mass takeover was bound by its round
// trips), and not with an ordered consumer: every consumer is created and
// deleted through the cluster's meta leader, and 64 takeovers at once
// made 128 of those, one of which stalled for ten seconds on the loaded
// test machine. A direct get may be answered by a replica that lags the
// leader: a batch that ends before last is asked again from where it
// stopped, until the replicas have caught up or ctx ends.
//
// A message that repeats the one before it on the subject (the same
// de-duplication id and the same bytes: the same append stored twice) is
// passed over and its stream sequence returned in repeats: the id names
// the append's content (appendID), so the repeat adds nothing, and a
// takeover must not refuse a game for it. A different message at the
// same seq is not a repeat: the reader's chain check refuses it.
func readSubject(ctx context.Context, nc *nats.Conn, game string, last uint64, fn func(seq uint64, h nats.Header, data []byte) error) (repeats []uint64, err error) {
	if last == 0 {
		return nil, nil
	}
	var prevID string
	var prevData []byte
	each := func(seq uint64, h nats.Header, data []byte) error {
		id := h.Get(jetstream.MsgIDHeader)
		if id != "" && id == prevID && bytes.Equal(data, prevData) {
			repeats = append(repeats, seq)
			return nil
		}
		prevID, prevData = id, append(prevData[:0], data...)
		return fn(seq, h, data)
	}
	next := uint64(1)
	for next <= last {
		got, err := readOneBatch(ctx, nc, game, next, last, each)
		if err != nil {
			return repeats, err
		}
		if got < next {
			// The replica that answered has nothing past next yet.
			select {
			case <-ctx.Done():
				return repeats, fmt.Errorf("game %s: reading the stream up to %d: at %d: %w", game, last, next, ctx.Err())
			case <-time.After(20 * time.Millisecond):
			}
			continue
		}
		next = got + 1
	}
	return repeats, nil
}

// readOneBatch asks for one batch from seq from and returns the last
// stream sequence passed to fn (from-1 if none).
func readOneBatch(ctx context.Context, nc *nats.Conn, game string, from, last uint64, fn func(uint64, nats.Header, []byte) error) (uint64, error) {
	inbox := nc.NewRespInbox()
	ch := make(chan *nats.Msg, readBatch+1)
	sub, err := nc.ChanSubscribe(inbox, ch)
	if err != nil {
		return 0, fmt.Errorf("game %s: reading the stream: %w", game, err)
	}
	defer sub.Unsubscribe()
	req, _ := json.Marshal(struct {
		Seq     uint64 `json:"seq"`
		NextFor string `json:"next_by_subj"`
		Batch   int    `json:"batch"`
	}{from, Subject(game), readBatch})
	if err := nc.PublishRequest("$JS.API.DIRECT.GET."+StreamName, inbox, req); err != nil {
		return 0, fmt.Errorf("game %s: reading the stream: %w", game, err)
	}
	done := from - 1
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case <-ctx.Done():
			return done, fmt.Errorf("game %s: reading the stream at %d: %w", game, done+1, ctx.Err())
		case <-timeout.C:
			return done, fmt.Errorf("game %s: reading the stream at %d: no answer within 10s", game, done+1)
		case m := <-ch:
			switch st := m.Header.Get("Status"); st {
			case "":
			case "204": // end of batch
				return done, nil
			case "404":
				return done, nil // nothing from here on this replica
			default:
				return done, fmt.Errorf("game %s: reading the stream at %d: status %s %s", game, done+1, st, m.Header.Get("Description"))
			}
			seq, err := strconv.ParseUint(m.Header.Get("Nats-Sequence"), 10, 64)
			if err != nil || seq <= done {
				return done, fmt.Errorf("game %s: reading the stream: a message without a sequence after %d", game, done)
			}
			if seq > last {
				continue // written after last was read: not this reader's business
			}
			if err := fn(seq, m.Header, m.Data); err != nil {
				return done, err
			}
			done = seq
		}
	}
}

// lastOnLeader returns the stream sequence of subj's last message (0 if
// none) and its headers, as the stream's leader knows it: the ordinary
// message-get API, not a direct get a lagging replica may answer.
func lastOnLeader(ctx context.Context, nc *nats.Conn, subj string) (uint64, nats.Header, error) {
	seq, h, _, err := lastMsgOnLeader(ctx, nc, StreamName, subj)
	return seq, h, err
}

// lastMsgOnLeader is lastOnLeader for any stream, with the message's data.
func lastMsgOnLeader(ctx context.Context, nc *nats.Conn, stream, subj string) (uint64, nats.Header, []byte, error) {
	req, _ := json.Marshal(struct {
		LastFor string `json:"last_by_subj"`
	}{subj})
	m, err := nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+stream, req)
	if err != nil {
		return 0, nil, nil, err
	}
	var resp struct {
		Message *struct {
			Seq  uint64 `json:"seq"`
			Hdr  []byte `json:"hdrs"`
			Data []byte `json:"data"`
		} `json:"message"`
		Error *struct {
			Code        int    `json:"code"`
			ErrCode     int    `json:"err_code"`
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(m.Data, &resp); err != nil {
		return 0, nil, nil, err
	}
	if resp.Error != nil {
		if resp.Error.ErrCode == 10037 { // no message found
			return 0, nil, nil, nil
		}
		return 0, nil, nil, errors.New(resp.Error.Description)
	}
	if resp.Message == nil {
		return 0, nil, nil, errors.New("no message in the answer")
	}
	if len(resp.Message.Hdr) == 0 {
		return resp.Message.Seq, nats.Header{}, resp.Message.Data, nil
	}
	h, err := nats.DecodeHeadersMsg(resp.Message.Hdr)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("the last message's headers: %w", err)
	}
	return resp.Message.Seq, h, resp.Message.Data, nil
}

// errFound stops a read of the stream early.
var errFound = errors.New("found")

// Created reports whether game has been created anywhere in the cluster:
// its subject in the stream holds an append (not only fences), whichever
// node holds it and whatever this node's own store has.
func (n *Node) Created(game string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	last, h, err := lastOnLeader(ctx, n.nc, Subject(game))
	switch {
	case err != nil:
		return false, fmt.Errorf("game %s: the stream's last message: %w", game, unreachable(n.nc, err))
	case last == 0:
		return false, nil
	case h.Get(hdrFence) == "":
		return true, nil
	}
	_, err = readSubject(ctx, n.nc, game, last, func(_ uint64, h nats.Header, _ []byte) error {
		if h.Get(hdrFence) == "" {
			return errFound
		}
		return nil
	})
	if errors.Is(err, errFound) {
		return true, nil
	}
	return false, err
}

// ReadStream calls fn with each event of game from seq from on, read from
// the stream (the log as the cluster has it, whichever node holds the
// game), its hash chain checked from the first event.
func (n *Node) ReadStream(ctx context.Context, game string, from uint64, fn func(*events.Envelope) error) error {
	last, _, err := lastOnLeader(ctx, n.nc, Subject(game))
	if err != nil {
		return fmt.Errorf("game %s: the stream's last message: %w", game, unreachable(n.nc, err))
	}
	v := events.Verifier{Game: game}
	_, err = readSubject(ctx, n.nc, game, last, func(seq uint64, h nats.Header, data []byte) error {
		if h.Get(hdrFence) != "" {
			return nil
		}
		rec, err := unmarshalRecord(data)
		if err != nil {
			return fmt.Errorf("game %s: stream message %d: %w", game, seq, err)
		}
		for i := range rec.Events {
			e := &rec.Events[i]
			if err := v.Next(e); err != nil {
				return fmt.Errorf("game %s: the stream's chain: %w", game, err)
			}
			if e.Seq >= from {
				if err := fn(e); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err
}

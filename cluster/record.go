package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"

	"pbem/events"
)

// A record is one append as the stream holds it: the events of one
// store.Request, chained, with the request's side-writes (the dice seed
// of a new game, the mail behind an order). One append is one stream
// message, so a node that dies half way leaves either all of an append in
// the stream or none of it.
type record struct {
	Events []events.Envelope
	// Keys are the request's idempotency keys besides the first event's
	// (a mail's content fingerprints): a node that rebuilds the game from
	// the stream records them too, so a copy of a mail sent again under a
	// new Message-ID is refused after a takeover as it was before.
	Keys   []string
	Secret []byte
	Raw    []byte
}

// Record versions: 1 had no Keys (still read: a stream written by an
// earlier pbem), 2 has them.
const (
	recordV1      = 1
	recordVersion = 2
)

func (r *record) marshal() []byte {
	b := []byte{recordVersion}
	b = binary.AppendUvarint(b, uint64(len(r.Events)))
	for i := range r.Events {
		m := r.Events[i].Marshal()
		b = binary.AppendUvarint(b, uint64(len(m)))
		b = append(b, m...)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Keys)))
	for _, k := range r.Keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	for _, x := range [][]byte{r.Secret, r.Raw} {
		if x == nil {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(x)))
		b = append(b, x...)
	}
	return b
}

var errRecord = errors.New("not a pbem stream record")

func unmarshalRecord(b []byte) (record, error) {
	var r record
	if len(b) == 0 || (b[0] != recordV1 && b[0] != recordVersion) {
		return r, errRecord
	}
	version := b[0]
	b = b[1:]
	next := func() ([]byte, error) {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return nil, errRecord
		}
		x := b[k : k+int(n)]
		b = b[k+int(n):]
		return x, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n == 0 || n > uint64(len(b)) {
		return r, errRecord
	}
	b = b[k:]
	for range n {
		m, err := next()
		if err != nil {
			return r, err
		}
		e, err := events.Unmarshal(m)
		if err != nil {
			return r, fmt.Errorf("%w: %v", errRecord, err)
		}
		r.Events = append(r.Events, e)
	}
	if version >= 2 {
		nk, k := binary.Uvarint(b)
		if k <= 0 || nk > uint64(len(b)) {
			return r, errRecord
		}
		b = b[k:]
		for range nk {
			key, err := next()
			if err != nil {
				return r, err
			}
			r.Keys = append(r.Keys, string(key))
		}
	}
	for _, dst := range []*[]byte{&r.Secret, &r.Raw} {
		if len(b) == 0 {
			return r, errRecord
		}
		present := b[0]
		b = b[1:]
		if present == 0 {
			continue
		}
		x, err := next()
		if err != nil {
			return r, err
		}
		*dst = append([]byte{}, x...)
	}
	if len(b) != 0 {
		return r, errRecord
	}
	return r, nil
}

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
	Secret []byte
	Raw    []byte
}

const recordVersion = 1

func (r *record) marshal() []byte {
	b := []byte{recordVersion}
	b = binary.AppendUvarint(b, uint64(len(r.Events)))
	for i := range r.Events {
		m := r.Events[i].Marshal()
		b = binary.AppendUvarint(b, uint64(len(m)))
		b = append(b, m...)
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
	if len(b) == 0 || b[0] != recordVersion {
		return r, errRecord
	}
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

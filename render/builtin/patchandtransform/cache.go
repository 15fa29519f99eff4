package patchandtransform

import (
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// cacheSize bounds the inputs a Function remembers. A render sends the same
// input Struct on every reconcile; a few entries cover renders that share a
// Function in parallel.
const cacheSize = 8

// An inputCache remembers the inputs a Function has read, so that a step
// whose input is sent again is not decoded, validated and converted again.
// An entry is keyed by the input Struct's identity: like every Runner, the
// function relies on its callers never to change a request, input included,
// once they have sent it, and the pipeline engine sends each step the same
// Struct on every reconcile of a render. An input that changes must be a new
// Struct.
type inputCache struct {
	mu      sync.Mutex
	entries [cacheSize]cacheEntry
	next    int
}

type cacheEntry struct {
	key      *structpb.Struct
	prepared *function.Prepared
}

// prepare returns in read by function.Prepare, from the cache when it can.
// A nil cache remembers nothing.
func (c *inputCache) prepare(in *structpb.Struct) *function.Prepared {
	if c == nil || in == nil {
		return prepare(in)
	}
	c.mu.Lock()
	for _, e := range c.entries {
		if e.key == in {
			c.mu.Unlock()
			return e.prepared
		}
	}
	c.mu.Unlock()

	p := prepare(in)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == in {
			return e.prepared
		}
	}
	c.entries[c.next] = cacheEntry{key: in, prepared: p}
	c.next = (c.next + 1) % cacheSize
	return p
}

// prepare reads an input as the function SDK hands it to the function: as
// the map the Struct holds (AsMap), nil for none.
func prepare(in *structpb.Struct) *function.Prepared {
	var m map[string]any
	if in != nil {
		m = in.AsMap()
	}
	return function.Prepare(m)
}

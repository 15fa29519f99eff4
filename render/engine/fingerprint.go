package engine

import (
	"encoding/json"
	"hash/maphash"
	"math"

	"github.com/xpmigrate/xpmigrate/render"
)

// A digest is a 128-bit hash of an outcome: two independently seeded
// 64-bit hashes, so that two different outcomes share a digest with a
// probability of about 2^-128.
type digest [2]uint64

// Seeds are chosen at random once per process; digests are compared only
// within one render.
var seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// fingerprint is what must stop changing for a render to be stable: the
// XR, the composed resources in name order and the XR's connection
// details. Values are hashed as their JSON meaning: an int64 and a
// float64 of the same value hash the same, and map order does not count.
// No text is built, so it costs a walk of the trees.
func fingerprint(out *render.Outcome) digest {
	var d digest
	for i := range d {
		h := hasher{seed: seeds[i]}
		x := h.value(out.XR)
		for _, cd := range render.SortedComposed(out.Composed) {
			x = mix(x, h.value(cd.Desired))
		}
		x = mix(x, h.details(out.ConnectionDetails))
		d[i] = x
	}
	return d
}

type hasher struct{ seed maphash.Seed }

// Type tags keep, say, the string "1" apart from the number 1.
const (
	tagNull uint64 = iota + 1
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagList
	tagMap
	tagBytes
	tagOther
)

// mix combines a running hash with the next value, order-dependent
// (splitmix64's finaliser over their combination).
func mix(h, v uint64) uint64 {
	x := h*0x9e3779b97f4a7c15 ^ v
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func (h hasher) value(v any) uint64 {
	switch v := v.(type) {
	case nil:
		return tagNull
	case bool:
		if v {
			return tagTrue
		}
		return tagFalse
	case string:
		return mix(tagString, maphash.String(h.seed, v))
	case int64:
		return mix(tagInt, uint64(v)) //nolint:gosec // The bits, for a hash: negative numbers wrap on purpose.
	case int:
		return mix(tagInt, uint64(int64(v))) //nolint:gosec // The bits, for a hash.
	case int32:
		return mix(tagInt, uint64(int64(v))) //nolint:gosec // The bits, for a hash.
	case float64:
		// JSON writes an integral float as an integer.
		if v == math.Trunc(v) && v >= math.MinInt64 && v < math.MaxInt64 {
			return mix(tagInt, uint64(int64(v))) //nolint:gosec // The bits, for a hash.
		}
		return mix(tagFloat, math.Float64bits(v))
	case map[string]any:
		if v == nil {
			return tagNull
		}
		// The sum of the entries' hashes does not depend on map order.
		var sum uint64
		for k, e := range v {
			sum += mix(maphash.String(h.seed, k), h.value(e))
		}
		return mix(mix(tagMap, uint64(len(v))), sum)
	case []any:
		return hashList(h, v)
	case []map[string]any:
		return hashList(h, v)
	default:
		// Not a JSON tree's type: hash its JSON text.
		b, err := json.Marshal(v)
		if err != nil {
			return mix(tagOther, maphash.String(h.seed, err.Error()))
		}
		return mix(tagOther, maphash.Bytes(h.seed, b))
	}
}

func (h hasher) details(cd map[string][]byte) uint64 {
	if cd == nil {
		return tagNull
	}
	var sum uint64
	for k, b := range cd {
		sum += mix(maphash.String(h.seed, k), mix(tagBytes, maphash.Bytes(h.seed, b)))
	}
	return mix(mix(tagMap, uint64(len(cd))), sum)
}

// hashList is hasher.value of a list, whatever the Go type of its items.
func hashList[E any](h hasher, v []E) uint64 {
	if v == nil {
		return tagNull
	}
	x := mix(tagList, uint64(len(v)))
	for _, e := range v {
		x = mix(x, h.value(e))
	}
	return x
}

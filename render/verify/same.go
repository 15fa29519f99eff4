package verify

import (
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// sameNormalized reports whether normalizeObject would make a and b equal,
// without building the normalised copies. It may answer false when they
// would be equal (the caller then normalises and diffs); it never answers
// true when they would not.
func sameNormalized(a, b map[string]any, repl replacer) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			return false
		}
		if k == "metadata" {
			am, aok := av.(map[string]any)
			bm, bok := bv.(map[string]any)
			if aok && bok {
				if !sameMetadata(am, bm, repl) {
					return false
				}
				continue
			}
		}
		if !sameValue(av, bv, repl) {
			return false
		}
	}
	return true
}

// sameMetadata compares metadata as normalizeObject leaves it: server
// fields dropped, empty claim labels dropped (and labels left empty), empty
// owner reference uids dropped.
func sameMetadata(a, b map[string]any, repl replacer) bool {
	for _, pair := range [2][2]map[string]any{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		for k, xv := range x {
			if xp.IsServerField(k) {
				continue
			}
			yv, ok := y[k]
			switch k {
			case "labels":
				xl, xok := xv.(map[string]any)
				yl, yok := yv.(map[string]any)
				if !xok || (ok && !yok) {
					break
				}
				if !sameLabels(xl, yl, repl) {
					return false
				}
				continue
			case "ownerReferences":
				if !ok || !sameOwnerRefs(xv, yv, repl) {
					return false
				}
				continue
			}
			if !ok || !sameValue(xv, yv, repl) {
				return false
			}
		}
	}
	return true
}

// claimLabel reports whether normalizeObject drops label k with value v.
func claimLabel(k string, v any) bool {
	return (k == xp.LabelClaimName || k == xp.LabelClaimNamespace) && v == ""
}

func sameLabels(a, b map[string]any, repl replacer) bool {
	return sameDropping(a, b, repl, claimLabel)
}

// emptyUID reports whether normalizeObject drops owner reference member k
// with value v.
func emptyUID(k string, v any) bool { return k == "uid" && v == "" }

// sameDropping compares objects whose members drop says normalizeObject
// drops: such a member matches none, or one dropped too.
func sameDropping(a, b map[string]any, repl replacer, drop func(k string, v any) bool) bool {
	for _, pair := range [2][2]map[string]any{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		for k, xv := range x {
			if drop(k, xv) {
				if yv, ok := y[k]; ok && !drop(k, yv) {
					return false
				}
				continue
			}
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv, repl) {
				return false
			}
		}
	}
	return true
}

func sameOwnerRefs(a, b any, repl replacer) bool {
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if !aok || !bok {
		return sameValue(a, b, repl)
	}
	if len(al) != len(bl) {
		return false
	}
	for i := range al {
		am, aok := al[i].(map[string]any)
		bm, bok := bl[i].(map[string]any)
		if !aok || !bok {
			if !sameValue(al[i], bl[i], repl) {
				return false
			}
			continue
		}
		if !sameDropping(am, bm, repl, emptyUID) {
			return false
		}
	}
	return true
}

// sameValue compares values as normalizeValue leaves them: strings after
// name replacement, numbers by value.
func sameValue(a, b any, repl replacer) bool {
	return jsonobj.EqualStrings(a, b, repl.same)
}

// same reports whether x and y are the same after name replacement.
func (r replacer) same(x, y string) bool { return r.replace(x) == r.replace(y) }

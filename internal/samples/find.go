package samples

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// A Doc is a document of a tree that may be a sample.
type Doc struct {
	// File is the document's file, a slash-separated path in the tree.
	File string

	// Index is the document's 0-based position in File; Item its 0-based
	// position in a v1 List document, -1 when it is no List item.
	Index, Item int

	// Line is the document's first line in File.
	Line int

	Object map[string]any
}

// Suffix is what follows the file in a sample's name: "#<document>", and
// ".<item>" for an item of a List (both 1-based).
func (d Doc) Suffix() string {
	if d.Item >= 0 {
		return fmt.Sprintf("#%d.%d", d.Index+1, d.Item+1)
	}
	return fmt.Sprintf("#%d", d.Index+1)
}

// A Composition is what samples are found for: a Composition, where it is
// and the XRD of its type.
type Composition struct {
	// File is the Composition's file, in the tree the Docs are in.
	File string

	// Name and Labels are the Composition's metadata.name and labels, which
	// a sample's compositionRef and compositionSelector select by.
	Name   string
	Labels map[string]string

	// APIVersion and Kind are its spec.compositeTypeRef.
	APIVersion, Kind string

	// ClaimGroup and ClaimKind are the spec.group and spec.claimNames.kind
	// of the XRD of its type; "" when there is none or it offers no claim.
	ClaimGroup, ClaimKind string
}

// Of reports whether obj is of a sample's type for c: an XR of its
// compositeTypeRef (apiVersion and kind), or a claim of its XRD (group
// and claim kind).
func (c Composition) Of(obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	if av == c.APIVersion && k == c.Kind {
		return true
	}
	i := strings.LastIndexByte(av, '/')
	return c.ClaimKind != "" && k == c.ClaimKind && i >= 0 && av[:i] == c.ClaimGroup
}

// Selects reports whether an XR or claim would use c: its compositionRef
// names c, or its compositionSelector matches c's labels, or it has
// neither (any Composition of its type may be picked). Claims and v1 XRs
// keep them in spec, v2 XRs in spec.crossplane.
func (c Composition) Selects(obj map[string]any) bool {
	for _, base := range [][]string{{"spec"}, {"spec", "crossplane"}} {
		at := jsonobj.Map(obj, base...)
		ref, _ := jsonobj.Map(at, "compositionRef")["name"].(string)
		if ref != "" {
			return ref == c.Name
		}
		sel, _ := jsonobj.Map(at, "compositionSelector")["matchLabels"].(map[string]any)
		if len(sel) == 0 {
			continue
		}
		for k, v := range sel {
			vs, _ := v.(string)
			if c.Labels[k] != vs {
				return false
			}
		}
		return true
	}
	return true
}

// A Skip is a document of a sample's type that is not a sample, and why.
type Skip struct {
	Doc    Doc
	Reason string
}

// Find returns the samples of c among docs: the documents of a sample's
// type (Of) that f does not tell apart as fixtures or unnamed objects
// (nil f checks nothing) and that select c (Selects), nearest c's file
// first (the most leading directories shared, see SharedDirs), then in
// the order of docs; at most max of them (0 or less: all). skipped are the
// documents of a sample's type f rejected, in the order of docs.
//
// This is the one sample finder: `migrate` asks it for each Composition
// of the tree it indexed, `verify` for its Composition among the files of
// the tree around it.
func Find(c Composition, docs []Doc, f *Filter, max int) (found []Doc, skipped []Skip) {
	type scored struct {
		d     Doc
		score int
		order int
	}
	var out []scored
	for i, d := range docs {
		if !c.Of(d.Object) {
			continue
		}
		if f != nil {
			if why := f.Reason(d.File, d.Object); why != "" {
				skipped = append(skipped, Skip{Doc: d, Reason: why})
				continue
			}
		}
		if !c.Selects(d.Object) {
			continue
		}
		out = append(out, scored{d: d, score: SharedDirs(c.File, d.File), order: i})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].order < out[j].order
	})
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	found = make([]Doc, len(out))
	for i := range out {
		found[i] = out[i].d
	}
	return found, skipped
}

// SharedDirs counts the leading directories the files a and b
// (slash-separated paths) have in common: how near each other they are.
func SharedDirs(a, b string) int {
	as := strings.Split(path.Dir(a), "/")
	bs := strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] && as[n] != "." {
		n++
	}
	return n
}

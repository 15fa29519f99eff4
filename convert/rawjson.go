package convert

import (
	"bytes"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// serverKeys are the keys stripServer removes, as JSON strings.
var serverKeys = func() [][]byte {
	var ks [][]byte
	for _, k := range xp.ServerFields {
		ks = append(ks, []byte(`"`+k+`"`))
	}
	return append(ks, []byte(`"`+xp.AnnotationLastApplied+`"`))
}()

// keptByText reports whether the parts of a whole-document Composition
// that checkRoundTrip compares have the same text in before and after
// (kubectl views). Equal texts mean equal values, so checkRoundTrip has
// nothing to report; false means it must decode and compare.
func (c *composition) keptByText(before, after []byte) bool {
	if c.base != "" {
		return false
	}
	bv, ok := manifest.NewJSONView(before)
	if !ok {
		return false
	}
	av := c.outView
	if av == nil || !bytes.Equal(after, c.outJSON) {
		if av, ok = manifest.NewJSONView(after); !ok {
			return false
		}
	}
	bm, ok := bv.Members(bv.All())
	if !ok {
		return false
	}
	am, ok := av.Members(av.All())
	if !ok {
		return false
	}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if !bytes.Equal(bv.Text(manifest.Get(bm, k)), av.Text(manifest.Get(am, k))) {
			return false
		}
	}
	if !c.r.o.KeepServerFields {
		md := bv.Text(manifest.Get(bm, "metadata"))
		for _, k := range serverKeys {
			if bytes.Contains(md, k) {
				return false // stripServer would change it
			}
		}
	}
	bs, ok := bv.Members(manifest.Get(bm, "spec"))
	if !ok {
		return false
	}
	as, ok := av.Members(manifest.Get(am, "spec"))
	if !ok {
		return false
	}
	for _, m := range bs {
		switch string(m.Key) {
		case `"resources"`, `"patchSets"`, `"environment"`, `"mode"`, `"pipeline"`, `"publishConnectionDetailsWithStoreConfigRef"`:
			continue
		}
		k := string(m.Key[1 : len(m.Key)-1])
		if bytes.ContainsRune(m.Key, '\\') || !bytes.Equal(bv.Text(m.Val), av.Text(manifest.Get(as, k))) {
			return false
		}
	}
	if string(bv.Text(manifest.Get(bs, "mode"))) == `"Pipeline"` {
		return true
	}
	res, ok := bv.Items(manifest.Get(bs, "resources"))
	if !ok {
		return false
	}
	var outRes manifest.Span
	if c.r.o.Phase1 {
		outRes = manifest.Get(as, "resources")
	} else {
		steps, ok := av.Items(manifest.Get(as, "pipeline"))
		if !ok {
			return false
		}
		for _, s := range steps {
			sm, ok := av.Members(s)
			if !ok {
				return false
			}
			in, ok := av.Members(manifest.Get(sm, "input"))
			if !ok {
				return false
			}
			if string(av.Text(manifest.Get(in, "apiVersion"))) == `"`+PTInputAPIVersion+`"` {
				outRes = manifest.Get(in, "resources")
			}
		}
	}
	out, ok := av.Items(outRes)
	if !ok || len(out) != len(res) {
		return false
	}
	for i := range res {
		b, ok := bv.Members(res[i])
		if !ok {
			return false
		}
		a, ok := av.Members(out[i])
		if !ok || !bytes.Equal(bv.Text(manifest.Get(b, "base")), av.Text(manifest.Get(a, "base"))) {
			return false
		}
	}
	return true
}

package functions

import (
	"bytes"
	"fmt"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Want is a Function the converted Compositions of a scope use.
type Want struct {
	Pin Pin
	// Name is the Function's metadata.name.
	Name string
}

// ManifestText renders Function manifests, one document each.
func ManifestText(fns []Want) []byte {
	var b bytes.Buffer
	for i, fn := range fns {
		if i > 0 {
			b.WriteString("---\n")
		}
		fmt.Fprintf(&b, "apiVersion: "+xp.FunctionAPIVersion+"\nkind: Function\nmetadata:\n  name: %s\nspec:\n  package: %s:%s\n", fn.Name, fn.Pin.Pkg, fn.Pin.Release)
	}
	return b.Bytes()
}

// IsConfiguration reports whether node n is a Configuration package
// manifest (meta.pkg.crossplane.io).
func IsConfiguration(n *yaml3.Node) bool {
	av, _ := yamledit.Str(yamledit.Get(n, "apiVersion"))
	k, _ := yamledit.Str(yamledit.Get(n, "kind"))
	return k == "Configuration" && xp.Group(av) == xp.GroupMetaPkg
}

// AddDependencies appends a dependency per function to spec.dependsOn,
// in the form the list already uses (apiVersion, kind and package, or the
// function key).
func AddDependencies(top *yaml3.Node, fns []Want) {
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	if spec == nil || !yamledit.IsMap(spec) {
		spec = yamledit.NewMap()
		yamledit.Set(top, "spec", spec)
	}
	deps := yamledit.Resolve(yamledit.Get(spec, "dependsOn"))
	if deps == nil || !yamledit.IsSeq(deps) {
		deps = yamledit.NewSeq()
		yamledit.Set(spec, "dependsOn", deps)
	}
	byPackage := false
	for _, d := range deps.Content {
		if yamledit.Has(d, "package") {
			byPackage = true
		}
	}
	for _, fn := range fns {
		m := yamledit.NewMap()
		if byPackage {
			yamledit.Set(m, "apiVersion", yamledit.NewString(xp.FunctionAPIVersion))
			yamledit.Set(m, "kind", yamledit.NewString("Function"))
			yamledit.Set(m, "package", yamledit.NewString(fn.Pin.Pkg))
		} else {
			yamledit.Set(m, "function", yamledit.NewString(fn.Pin.Pkg))
		}
		v := yamledit.NewString(fn.Pin.Constraint)
		v.Style = yaml3.DoubleQuotedStyle
		yamledit.Set(m, "version", v)
		deps.Content = append(deps.Content, m)
	}
}

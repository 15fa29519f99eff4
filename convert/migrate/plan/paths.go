package plan

import (
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Directories of the XRs that have no namespace: a Kubernetes namespace is
// a DNS-1123 label, which never starts with "_".
const (
	// dirCluster holds cluster-scoped new XRs.
	dirCluster = "_cluster"
	// dirUnplanned holds the legacy XRs whose new XR could not be made,
	// under the legacy XR's name.
	dirUnplanned = "_unplanned"
)

// qualifier separates an XR's name from its kind and group in the name of
// a directory where several XRs share a namespace and name: no Kubernetes
// name holds it.
const qualifier = "_"

// dirOf is the one way a path is made from data: the directory, relative
// to the plan directory, of the plan of the XR r names ("<namespace>/<name>",
// or "_cluster/<name>" without a namespace, "_unplanned/<name>" when r is a
// legacy XR that has no new XR), with "_<kind>.<group>" after the name when
// qualified. It refuses (invalid input, naming the object and the field)
// anything that is not a valid Kubernetes namespace (a DNS-1123 label),
// name (a DNS-1123 subdomain), kind (a DNS-1035 label, lowercased) or API
// group (a DNS-1123 subdomain): what it returns is relative, has no "." or
// ".." element, and stays inside the directory it is joined to.
//
//	dirOf(Ref{APIVersion: "v2.example.org/v1", Kind: "NopDB", Namespace: "team-a", Name: "orders"}, false, false) // "team-a/orders"
//	dirOf(Ref{... the same ...}, false, true)                                                                  // "team-a/orders_nopdb.v2.example.org"
//	dirOf(Ref{... Namespace: "../../x" ...}, false, false)                                                     // error: metadata.namespace
func dirOf(r Ref, unplanned, qualified bool) (string, error) {
	group, _ := xp.SplitAPIVersion(r.APIVersion)
	invalid := func(field, what string, why []string) error {
		role := "the new XR"
		if unplanned {
			role = "the legacy XR"
		}
		return errkind.InvalidInput(errors.Errorf("cannot place the plan of %s (kind %q, apiVersion %q, namespace %q, name %q) in the plan directory: %s is not a valid Kubernetes %s: %s",
			role, r.Kind, r.APIVersion, r.Namespace, r.Name, field, what, strings.Join(why, "; ")))
	}
	if why := validation.IsDNS1035Label(strings.ToLower(r.Kind)); len(why) > 0 {
		return "", invalid("kind", "kind", why)
	}
	if group != "" {
		if why := validation.IsDNS1123Subdomain(group); len(why) > 0 {
			return "", invalid("apiVersion", "API group", why)
		}
	}
	if why := validation.IsDNS1123Subdomain(r.Name); len(why) > 0 {
		return "", invalid("metadata.name", "name", why)
	}
	parent := dirCluster
	switch {
	case unplanned:
		// A legacy XR is cluster-scoped: its namespace, if any, names
		// nothing.
		parent = dirUnplanned
	case r.Namespace != "":
		if why := validation.IsDNS1123Label(r.Namespace); len(why) > 0 {
			return "", invalid("metadata.namespace", "namespace", why)
		}
		parent = r.Namespace
	}
	name := r.Name
	if qualified {
		name += qualifier + strings.ToLower(r.Kind)
		if group != "" {
			name += "." + group
		}
	}
	return parent + "/" + name, nil
}

// place gives every XR of xrs its directory (XR.Dir, through dirOf): the
// new XR's namespace and name, or the legacy XR's name when there is no
// new XR. Where several XRs would share one (claims of different kinds
// with the same namespace and name, say), each of them gets its kind and
// group too, so distinct objects never share a directory; the names
// depend only on the XRs, not on their order. Two XRs that still share
// one (the same object twice, or kinds that differ only in case, which a
// case-insensitive file system cannot tell apart) are refused.
func place(xrs []*XR) error {
	type slot struct {
		ref       Ref
		unplanned bool
		dir       string
	}
	slots := make([]slot, len(xrs))
	count := map[string]int{}
	for i, x := range xrs {
		s := slot{ref: x.New}
		if s.ref.Name == "" {
			s.ref, s.unplanned = x.Legacy, true
		}
		d, err := dirOf(s.ref, s.unplanned, false)
		if err != nil {
			return err
		}
		s.dir = d
		slots[i] = s
		count[s.dir]++
	}
	taken := map[string]*XR{}
	for i, x := range xrs {
		s := slots[i]
		if count[s.dir] > 1 {
			d, err := dirOf(s.ref, s.unplanned, true)
			if err != nil {
				return err
			}
			s.dir = d
		}
		key := strings.ToLower(s.dir)
		if other, ok := taken[key]; ok {
			return errkind.InvalidInput(errors.Errorf("cannot plan the legacy XRs %s and %s apart: both would move onto %s (plan directory %q)", other.Legacy, x.Legacy, s.ref, s.dir))
		}
		taken[key] = x
		x.Dir = s.dir
	}
	return nil
}

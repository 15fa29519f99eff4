package plan

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// The codes of the upgrade check's findings.
const (
	// CodeLegacyComposition: a Composition in mode Resources (or without a
	// mode). Crossplane v2 has no such mode: it runs the Composition as an
	// empty pipeline, so every XR that runs it loses its composed
	// resources to garbage collection.
	CodeLegacyComposition = "U1"
	// CodeLegacyRevision: an XR runs a CompositionRevision in mode
	// Resources although its Composition is now a Pipeline (a revision
	// pinned with compositionUpdatePolicy: Manual, or not yet moved on).
	CodeLegacyRevision = "U2"
)

// An UpgradeXR is an XR a finding puts at risk.
type UpgradeXR struct {
	// Kind, Name and Namespace (empty for a cluster-scoped XR) name it.
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Claim is "<namespace>/<name>" of its claim, if any.
	Claim string `json:"claim,omitempty"`
	// Revision is the CompositionRevision it runs (spec.compositionRevisionRef).
	Revision string `json:"revision,omitempty"`
	// Composed counts its composed resources (spec.resourceRefs) that exist;
	// Delete those of them whose deletionPolicy is Delete (the default):
	// deleting them deletes their external resources.
	Composed int `json:"composed"`
	Delete   int `json:"deletionPolicyDelete"`
}

// An UpgradeFinding is a Composition that Crossplane v2 would not run as
// the cluster runs it today, with the XRs at risk.
type UpgradeFinding struct {
	Code        string      `json:"code"`
	Composition string      `json:"composition"`
	Message     string      `json:"message"`
	XRs         []UpgradeXR `json:"xrs"`
}

// An UpgradeReport is what CheckUpgrade read and found.
type UpgradeReport struct {
	// Compositions and XRs count what was read.
	Compositions int              `json:"compositions"`
	XRs          int              `json:"xrs"`
	Findings     []UpgradeFinding `json:"findings"`
	// Missing lists the requests the API server forbade: the check is
	// incomplete without them.
	Missing []string `json:"missingPermissions,omitempty"`
}

// Ready says the upgrade check found nothing and read everything it asked
// for.
func (r *UpgradeReport) Ready() bool { return len(r.Findings) == 0 && len(r.Missing) == 0 }

// legacyMode says whether a Composition or CompositionRevision runs in mode
// Resources, the default mode of Crossplane v1.
func legacyMode(u *unstructured.Unstructured) bool {
	mode, _, _ := unstructured.NestedString(u.Object, "spec", "mode")
	return mode == "" || mode == "Resources"
}

// CheckUpgrade reads, with get and list requests only, every Composition
// of the cluster and the XRs that run each, and reports what Crossplane v2
// would not run as Crossplane v1 runs it: a Composition in mode Resources
// (CodeLegacyComposition) and an XR that runs a CompositionRevision in
// mode Resources (CodeLegacyRevision). Findings are sorted by Composition.
func CheckUpgrade(ctx context.Context, r *cluster.Reader) (*UpgradeReport, error) {
	comps, err := r.Compositions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot list Compositions")
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i].GetName() < comps[j].GetName() })
	rep := &UpgradeReport{Compositions: len(comps), Findings: []UpgradeFinding{}}
	for _, comp := range comps {
		legacy := legacyMode(comp)
		var atRisk []UpgradeXR
		err := r.Composites(ctx, comp, func(c *cluster.Composite) error {
			rep.XRs++
			if legacy || (c.Revision != nil && legacyMode(c.Revision)) {
				atRisk = append(atRisk, upgradeXR(c))
			}
			return nil
		})
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read the XRs of Composition %q", comp.GetName())
		}
		switch {
		case legacy:
			rep.Findings = append(rep.Findings, UpgradeFinding{
				Code: CodeLegacyComposition, Composition: comp.GetName(), XRs: nonNil(atRisk),
				Message: "mode Resources: Crossplane v2 runs it as an empty pipeline, so " + lose(atRisk) +
					"; convert it (xpmigrate migrate or convert) and apply the Pipeline Composition before the upgrade",
			})
		case len(atRisk) > 0:
			rep.Findings = append(rep.Findings, UpgradeFinding{
				Code: CodeLegacyRevision, Composition: comp.GetName(), XRs: atRisk,
				Message: "XRs run a CompositionRevision in mode Resources: Crossplane v2 runs it as an empty pipeline, so " + lose(atRisk) +
					"; move them to a Pipeline revision (compositionUpdatePolicy: Automatic, or a new compositionRevisionRef) before the upgrade",
			})
		}
	}
	for _, p := range r.Missing() {
		rep.Missing = append(rep.Missing, p.String())
	}
	return rep, nil
}

func nonNil(xrs []UpgradeXR) []UpgradeXR {
	if xrs == nil {
		return []UpgradeXR{}
	}
	return xrs
}

// lose says what the XRs at risk would lose.
func lose(xrs []UpgradeXR) string {
	if len(xrs) == 0 {
		return "no XR runs it today, but every XR that selects it after the upgrade composes nothing"
	}
	composed, del := 0, 0
	for _, x := range xrs {
		composed += x.Composed
		del += x.Delete
	}
	return fmt.Sprintf("%s would lose %s to garbage collection (%d with deletionPolicy Delete: their external resources would be deleted)",
		plural(len(xrs), "XR", "XRs"), plural(composed, "composed resource", "composed resources"), del)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func upgradeXR(c *cluster.Composite) UpgradeXR {
	x := UpgradeXR{Kind: c.XR.GetKind(), Name: c.XR.GetName(), Namespace: c.XR.GetNamespace(), Revision: c.RevisionName}
	if c.Claim != nil {
		x.Claim = c.Claim.GetNamespace() + "/" + c.Claim.GetName()
	} else if ns, _, _ := unstructured.NestedString(c.XR.Object, "spec", "claimRef", "namespace"); ns != "" {
		name, _, _ := unstructured.NestedString(c.XR.Object, "spec", "claimRef", "name")
		x.Claim = ns + "/" + name
	}
	for _, cd := range c.Composed {
		if cd.State != cluster.Found || cd.Object == nil {
			continue
		}
		x.Composed++
		if p, _, _ := unstructured.NestedString(cd.Object.Object, "spec", "deletionPolicy"); p == "" || p == "Delete" {
			x.Delete++
		}
	}
	return x
}

// WriteUpgradeText writes the report for a terminal: one block per
// finding, then the verdict. Names read from the cluster are escaped
// (logsafe), so none can end a line or send a terminal sequence.
func WriteUpgradeText(w io.Writer, rep *UpgradeReport) error {
	var b strings.Builder
	logsafe.Fprintf(&b, "Crossplane v2 upgrade check: read %s and %s.\n",
		plural(rep.Compositions, "Composition", "Compositions"), plural(rep.XRs, "XR", "XRs"))
	for _, f := range rep.Findings {
		logsafe.Fprintf(&b, "\n%s Composition %s: %s.\n", f.Code, f.Composition, f.Message)
		for _, x := range f.XRs {
			logsafe.Fprintf(&b, "  %s %s", x.Kind, qualified(x.Namespace, x.Name))
			if x.Claim != "" {
				logsafe.Fprintf(&b, " (claim %s)", x.Claim)
			}
			if x.Revision != "" {
				logsafe.Fprintf(&b, ", revision %s", x.Revision)
			}
			logsafe.Fprintf(&b, ": %s, %d with deletionPolicy Delete\n", plural(x.Composed, "composed resource", "composed resources"), x.Delete)
		}
	}
	if len(rep.Missing) > 0 {
		b.WriteString("\nIncomplete: the API server forbade these requests, so what they would read was not checked:\n")
		for _, m := range rep.Missing {
			logsafe.Fprintf(&b, "  %s\n", m)
		}
	}
	switch {
	case len(rep.Findings) > 0:
		logsafe.Fprintf(&b, "\nNot ready: %s would change what the cluster composes. Do not upgrade yet.\n", plural(len(rep.Findings), "finding", "findings"))
	case len(rep.Missing) > 0:
		b.WriteString("\nNot proven ready: the check could not read everything.\n")
	default:
		b.WriteString("\nReady: every Composition is a Pipeline and every XR runs a Pipeline revision.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func qualified(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

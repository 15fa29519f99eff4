package kubetest

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/xcrd"
)

// CompositeCRDs derives the CRDs Crossplane v1.20.11 creates for an XRD
// (xcrd.CompositeCRDs).
func CompositeCRDs(xrd *unstructured.Unstructured) (xr, claim *unstructured.Unstructured, err error) {
	return xcrd.CompositeCRDs(xrd)
}

// CompositeCRDV2 derives the XR CRD Crossplane v2.3.4 creates for a v2
// XRD (xcrd.CompositeCRDV2).
func CompositeCRDV2(xrd *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return xcrd.CompositeCRDV2(xrd)
}

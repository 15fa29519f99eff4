// Package kubetest runs a real etcd and kube-apiserver on loopback for the
// end-to-end tests (build tag e2e): no fakes, no envtest download.
//
// Start launches Debian's etcd and a kube-apiserver built by
// hack/kube-apiserver.sh on free loopback ports in a temporary directory,
// with static-token users: "admin" (system:masters) and "reader", bound to a
// ClusterRole that grants only get and list. It writes a kubeconfig per
// user, keeps an audit log of every request, and Stop ends both processes
// by the PIDs it started. ReadOnlyViolations reads the audit log and names
// every request of a user whose verb is not get or list, so a suite can
// prove that the code under test never writes.
//
//	s, err := kubetest.Start(ctx, kubetest.Options{})
//	if err != nil { ... }
//	defer s.Stop()
//	_ = s.InstallCrossplaneCRDs(ctx)
//	kubeconfig := s.Kubeconfig(kubetest.Reader)
//
// The binaries are found through the environment (XPMIGRATE_KUBE_APISERVER,
// XPMIGRATE_ETCD) or at their default places: the build cache of
// hack/kube-apiserver.sh and etcd on PATH. The package is imported only by
// tests.
package kubetest

package kubetest

import "syscall"

// procAttr makes the kernel stop a child when the test process dies without
// calling Stop (a test timeout, a kill), so no etcd or API server outlives it.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// Package slurmtest starts a one-node Slurm cluster for a test: munged, slurmctld and slurmd of this machine's Slurm, with their configuration, state and logs in a temporary directory.
//
// Start skips the test, saying why, where Slurm cannot run: its daemons
// or commands are not installed (Debian: apt-get install slurm-wlm munge),
// the test does not run as root (slurmd starts jobs as their user), or the
// daemons do not come up (the message quotes their logs). The cluster has
// one node of 8 CPUs and 8 gpu generic resources (plain files standing in
// for devices: nothing needs a GPU), one partition, no accounting storage
// (sacct does not work; squeue keeps finished jobs for MinJobAge, 600 s),
// and a scheduler that starts tasks as soon as others end.
package slurmtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Cluster is a running one-node Slurm cluster; SLURM_CONF points the Slurm
// commands at it for the rest of the test.
type Cluster struct {
	Dir       string // configuration, state, logs
	Conf      string // slurm.conf
	Partition string
	Node      string
	CPUs      int
	GPUs      int
}

// daemons are the programs Start needs.
var daemons = []string{"munged", "munge", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"}

// Start starts a cluster for t and stops it (cancelling its jobs first)
// when t ends; it skips t when Slurm cannot start here.
func Start(t *testing.T) *Cluster {
	t.Helper()
	for _, d := range daemons {
		if _, err := exec.LookPath(d); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", d)); err != nil {
				t.Skipf("Slurm is not installed (no %s): apt-get install slurm-wlm munge to run this test", d)
			}
		}
	}
	if os.Getuid() != 0 {
		t.Skip("a one-node Slurm cluster needs root (slurmd starts jobs as their user); run this test as root")
	}
	// Short paths: the munge and slurmd sockets live here (108 bytes at most).
	dir, err := os.MkdirTemp("", "gpslurm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Partition: "debug", Node: "gp-node", CPUs: 8, GPUs: 8}
	for _, d := range []struct {
		name string
		mode os.FileMode
	}{{".", 0o755}, {"munge", 0o700}, {"run", 0o755}, {"state", 0o755}, {"spool", 0o755}, {"log", 0o755}, {"dev", 0o755}} {
		p := filepath.Join(dir, d.name)
		if err := os.MkdirAll(p, d.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, d.mode); err != nil {
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	f, err := os.Open("/dev/urandom")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Read(key)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	for i := range c.GPUs {
		os.WriteFile(filepath.Join(dir, "dev", fmt.Sprintf("gpu%d", i)), nil, 0o644)
	}
	ports := freePorts(t, 2)
	socket := filepath.Join(dir, "run", "munge.sock")
	c.writeConfig(t, ports, socket)
	t.Setenv("SLURM_CONF", c.Conf)

	var procs []*exec.Cmd
	t.Cleanup(func() { c.stop(procs) })
	start := func(name string, args ...string) {
		path, err := exec.LookPath(name)
		if err != nil {
			path = filepath.Join("/usr/sbin", name)
		}
		cmd := exec.Command(path, args...)
		log, _ := os.Create(filepath.Join(dir, "log", name+".out"))
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Skipf("Slurm cannot start here: %s: %v", name, err)
		}
		procs = append(procs, cmd)
	}
	start("munged", "--foreground", "--key-file="+filepath.Join(dir, "munge", "munge.key"), "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "run", "munged.pid"), "--log-file="+filepath.Join(dir, "log", "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "seed"))
	if !waitFor(10*time.Second, func() bool { return exec.Command("munge", "--socket="+socket, "--no-input").Run() == nil }) {
		t.Skipf("Slurm cannot start here: munged did not come up:\n%s", tail(dir, "munged.log", "munged.out"))
	}
	start("slurmctld", "-D", "-i", "-f", c.Conf)
	start("slurmd", "-D", "-f", c.Conf, "-N", c.Node)
	idle := func() bool {
		out, err := exec.Command("sinfo", "--noheader", "--nodes="+c.Node, "--format=%t").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	}
	if !waitFor(30*time.Second, idle) {
		out, _ := exec.Command("sinfo", "--noheader", "--format=%n %t %E").CombinedOutput()
		t.Skipf("Slurm cannot start here: the node is not idle (sinfo: %s):\n%s", bytes.TrimSpace(out),
			tail(dir, "slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"))
	}
	return c
}

// stop cancels the cluster's jobs (slurmd's job steps outlive it), waits
// up to 10 s for them to leave the queue, then stops the daemons procs in
// reverse order of start.
func (c *Cluster) stop(procs []*exec.Cmd) {
	// Cancel every job first: slurmd's job steps outlive it.
	env := append(os.Environ(), "SLURM_CONF="+c.Conf) // this cluster's jobs only
	scancel := exec.Command("scancel", "--user=root")
	scancel.Env = env
	scancel.Run()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		squeue := exec.Command("squeue", "--noheader", "--states=PENDING,RUNNING,COMPLETING")
		squeue.Env = env
		out, _ := squeue.Output()
		if len(bytes.TrimSpace(out)) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i := len(procs) - 1; i >= 0; i-- {
		p := procs[i]
		p.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			p.Process.Kill()
			<-done
		}
	}
}

// writeConfig writes the cluster's slurm.conf and gres.conf: slurmctld and
// slurmd on ports, munge on socket, one node with c's CPUs and GPUs (empty
// files under dev/) in one partition.
func (c *Cluster) writeConfig(t *testing.T, ports []int, socket string) {
	t.Helper()
	dir := c.Dir
	conf := fmt.Sprintf(`ClusterName=graphperf-test
SlurmctldHost=localhost
SlurmctldPort=%d
SlurmdPort=%d
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[3]s
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/run/slurmctld.pid
SlurmdPidFile=%[4]s/run/slurmd.pid
SlurmctldLogFile=%[4]s/log/slurmctld.log
SlurmdLogFile=%[4]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000,default_queue_depth=1000
ReturnToService=2
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
GresTypes=gpu
KillWait=2
MinJobAge=600
MaxArraySize=10001
NodeName=%[5]s NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=%[6]d Gres=gpu:%[7]d State=UNKNOWN
PartitionName=%[8]s Nodes=%[5]s Default=YES MaxTime=INFINITE State=UP
`, ports[0], ports[1], socket, dir, c.Node, c.CPUs, c.GPUs, c.Partition)
	if err := os.WriteFile(c.Conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	gres := fmt.Sprintf("AutoDetect=off\nNodeName=%s Name=gpu File=%s/dev/gpu[0-%d]\n", c.Node, dir, c.GPUs-1)
	if err := os.WriteFile(filepath.Join(dir, "gres.conf"), []byte(gres), 0o644); err != nil {
		t.Fatal(err)
	}
}

// freePorts returns n TCP ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("Slurm cannot start here: no free port: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func waitFor(d time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if ok() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// tail returns the last lines of the daemons' logs.
func tail(dir string, names ...string) string {
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, "log", n))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 8 {
			lines = lines[len(lines)-8:]
		}
		fmt.Fprintf(&b, "== %s\n%s\n", n, strings.Join(lines, "\n"))
	}
	return b.String()
}

// Package cluster runs a corpus sweep in shards, as a Slurm job array or as local processes, each shard a kernels.Sweep into a results directory of its own.
//
// A sharded sweep's results directory holds the plan (cluster.json: the
// corpus, the directories, the runners, the shards and every submission
// with its Slurm job id), the batch script (slurm/sweep.sbatch), each task's
// output (slurm/JOB_TASK.out, local/shard-NNN.out) and one directory per
// shard (shards/NNN), which is an ordinary sweep results directory: its
// graphs' results files, its manifest and its log. A task runs its shard
// exactly as a local sweep does (kernels.Sweep with the shard's graphs), so
// a killed task loses at most the graph it was measuring and a task run
// again skips what is complete. A task's output says why it failed (the
// sweep's FAILED lines repeat a crashed runner's last stderr lines), and
// a local task's ends with how it exited: Check reads them (ReadOutcome).
//
// Nothing user-given is ever put into a shell string: the batch script is
// fixed text, and the command a task runs reaches sbatch, and through it
// the script, as arguments.
package cluster

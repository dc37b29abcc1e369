"""Running ``sidestep`` commands in-process, for the tests of the command line."""
from sidestep import cli
from sidestep.commands import compile_notice


def run(argv, capsys):
    """``cli.main(argv)``: ``(status, stdout, stderr)``, catching the exits of bad input.

    The first run on a machine (or after a kernel changed) says it compiles:
    that one line is left out of stderr.
    """
    try:
        status = cli.main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    out = capsys.readouterr()
    err = "".join(line for line in out.err.splitlines(True)
                  if not line.startswith(compile_notice.MESSAGE))
    return status, out.out, err

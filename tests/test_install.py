"""The command that adds an extra names the way the package was installed:
pip's record of its source (direct_url.json) is read, not guessed."""

import json

from draughts._install import install_command

GENERAL = (
    'pip install ".[gui]" in a clone of the source, or pip install "draughts-engine[gui]" for an installed distribution'
)


def record(**fields):
    return json.dumps(fields)


def test_a_clone_installed_with_pip_install_dot_gets_its_own_path(tmp_path):
    url = tmp_path.as_uri()
    assert install_command("gui", record(url=url, dir_info={})) == f'pip install "{tmp_path}[gui]"'
    assert (
        install_command("cluster", record(url=url, dir_info={"editable": True}))
        == f'pip install -e "{tmp_path}[cluster]"'
    )


def test_a_wheel_file_gets_its_path(tmp_path):
    wheel = tmp_path / "draughts engine-0.1.0-cp311-cp311-linux_x86_64.whl"
    wheel.write_bytes(b"")
    url = wheel.as_uri()  # the space is written %20 in the URL
    assert "%20" in url
    assert install_command("gui", record(url=url, archive_info={"hash": "sha256=00"})) == f'pip install "{wheel}[gui]"'


def test_a_repository_url_is_named_with_the_distribution():
    r = record(url="https://example.org/draughts.git", vcs_info={"vcs": "git", "commit_id": "0" * 40})
    assert install_command("gui", r) == 'pip install "draughts-engine[gui] @ git+https://example.org/draughts.git"'


def test_no_record_or_a_place_that_is_gone_gets_both_forms(tmp_path):
    assert install_command("gui", None) == GENERAL
    gone = (tmp_path / "moved").as_uri()
    assert install_command("gui", record(url=gone, dir_info={})) == GENERAL
    for bad in ("not json", "[1, 2]", '{"url": 3}', record(url="https://pypi.example/x.whl", archive_info={})):
        assert install_command("gui", bad) == GENERAL, bad

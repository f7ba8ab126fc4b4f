"""The admin password from the environment or a secret file (server/admin_account.py)."""

import pytest

from server.admin_account import AdminError, admin_password


def test_the_password_from_a_file_or_the_environment(tmp_path):
    secret = tmp_path / "admin_password"
    secret.write_text("s3cret-words\n")
    assert admin_password({"FRAY_ADMIN_PASSWORD_FILE": str(secret), "FRAY_ADMIN_PASSWORD": "other"}) == "s3cret-words"
    assert admin_password({"FRAY_ADMIN_PASSWORD": "other"}) == "other"
    assert admin_password({}) is None


@pytest.mark.parametrize("content, words", [
    (None, "No such file"),
    (b" \n\n", "is empty"),
    (b"\xff\xfepw\n", "is not UTF-8 text"),
])
def test_a_bad_password_file_is_one_clear_error(tmp_path, content, words):
    secret = tmp_path / "admin_password"
    if content is not None:
        secret.write_bytes(content)
    with pytest.raises(AdminError) as err:
        admin_password({"FRAY_ADMIN_PASSWORD_FILE": str(secret)})
    assert str(err.value).startswith(f"FRAY_ADMIN_PASSWORD_FILE {str(secret)!r}")
    assert words in str(err.value) and "\n" not in str(err.value)

"""tf.contrib.tensorboard.plugins.projector: the messages keep TF 1.15's wire format, and
visualize_embeddings refuses what it cannot write (the corpus script
``contrib_projector.py`` checks the file it writes against TF 1.15.5)."""

import pytest

from tf1mem.migrate import inventory
from tf1mem.compat import table
from tf1mem.compat.tf.contrib.tensorboard.plugins import projector


def test_tensorboard_is_provided_not_removed():
    assert "tensorboard" in table.CONTRIB_MODULES
    assert "tensorboard" not in table.REMOVED_CONTRIB
    assert inventory.describe("tensorboard")[0] == "re-implemented"


def test_messages_have_tf1_field_numbers_and_round_trip():
    config = projector.ProjectorConfig(model_checkpoint_path="ckpt")
    emb = config.embeddings.add(tensor_name="emb:0", tensor_shape=[4, 3])
    emb.sprite.single_image_dim.extend([28, 28])
    # field 1 (string "ckpt"), then field 2 (the embedding): TF 1.15's numbering
    data = config.SerializeToString()
    assert data.startswith(b"\x0a\x04ckpt\x12")
    again = projector.ProjectorConfig.FromString(data)
    assert again == config and list(again.embeddings[0].tensor_shape) == [4, 3]
    assert projector.ProjectorConfig.DESCRIPTOR.full_name == "tensorflow.ProjectorConfig"


class _Writer:
    def __init__(self, logdir):
        self._logdir = logdir

    def get_logdir(self):
        return self._logdir


def test_visualize_embeddings_refuses_a_writer_without_logdir_or_a_bad_config(tmp_path):
    config = projector.ProjectorConfig()
    with pytest.raises(TypeError, match="tf.summary.FileWriter"):
        projector.visualize_embeddings(object(), config)
    with pytest.raises(TypeError, match="ProjectorConfig; got dict"):
        projector.visualize_embeddings(_Writer(str(tmp_path)), {"embeddings": []})
    with pytest.raises(ValueError, match="no log directory"):
        projector.visualize_embeddings(_Writer(None), config)
    assert list(tmp_path.iterdir()) == []

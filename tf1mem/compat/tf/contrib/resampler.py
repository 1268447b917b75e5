"""Bilinear sampling: ``tf.contrib.resampler.resampler`` and
``tf.contrib.image.dense_image_warp``.

TF 1.15 had ``resampler`` as a contrib kernel (``Resampler``, with its own gradient op);
TF 2.21 has neither. Here both are gathers and weighted sums of TF ops, so their
gradients are TensorFlow's own:

- ``resampler(data, warp)``: ``data`` ``[batch, height, width, channels]``, ``warp``
  ``[batch, d_1, ..., d_n, 2]`` of ``(x, y)`` points (x along the width); the result is
  ``[batch, d_1, ..., d_n, channels]``. As TF 1.15's kernel: a point reads the four
  pixels around it, pixels outside the image read 0, and a point with ``x <= -1``,
  ``y <= -1``, ``x >= width`` or ``y >= height`` is 0 (its gradient too).
- ``dense_image_warp(image, flow)``: each output pixel ``(i, j)`` reads ``image`` at
  ``(i - flow[..., 0], j - flow[..., 1])``, bilinearly, the points clamped to the image
  (edge pixels repeat), as TF 1.15's.

Values and gradients equal TF 1.15.5's to 1e-5 (corpus script ``contrib_resampler.py``).
Bad ranks and a last ``warp`` / ``flow`` dimension other than 2 are ValueErrors when the
graph is built (TF 1.15 failed later, or, for a flow of one channel, broadcast it).
TensorFlow is imported when a function runs.
"""

__all__ = ["resampler", "dense_image_warp"]


def _static_check(tensor, what, rank=None, min_rank=None, last=None):
    shape = tensor.shape
    if shape.rank is None:
        return
    if rank is not None and shape.rank != rank:
        raise ValueError(f"{what} must have rank {rank}; got shape {shape}")
    if min_rank is not None and shape.rank < min_rank:
        raise ValueError(f"{what} must have rank {min_rank} or more; got shape {shape}")
    if last is not None and shape[-1] is not None and shape[-1] != last:
        raise ValueError(f"{what}'s last dimension must be {last}; got shape {shape}")


def resampler(data, warp, name="resampler"):
    """Samples ``data`` at the ``(x, y)`` points of ``warp``, bilinearly, zero outside."""
    import tensorflow as tf

    with tf.compat.v1.name_scope(name, "resampler", [data, warp]):
        data = tf.convert_to_tensor(data, name="data")
        warp = tf.convert_to_tensor(warp, name="warp")
        _static_check(data, "resampler: data ([batch, height, width, channels])", rank=4)
        _static_check(warp, "resampler: warp ([batch, ..., 2] of x, y)", min_rank=2, last=2)
        if warp.dtype != data.dtype:
            raise TypeError(f"resampler: warp is {warp.dtype.name} and data "
                            f"{data.dtype.name}; give both the same float dtype")
        dtype = data.dtype
        data_shape = tf.shape(data)
        batch, height, width = data_shape[0], data_shape[1], data_shape[2]
        warp_shape = tf.shape(warp)
        points = tf.reshape(warp, [warp_shape[0], -1, 2])
        x, y = points[..., 0], points[..., 1]
        w, h = tf.cast(width, dtype), tf.cast(height, dtype)
        inside = (x > -1) & (y > -1) & (x < w) & (y < h)
        # Outside points are masked; clip them first so that the int casts stay small.
        x = tf.where(inside, x, tf.zeros_like(x))
        y = tf.where(inside, y, tf.zeros_like(y))
        x0, y0 = tf.floor(x), tf.floor(y)
        fx, fy = x - x0, y - y0
        x0, y0 = tf.cast(x0, tf.int32), tf.cast(y0, tf.int32)
        rows = tf.broadcast_to(tf.range(batch)[:, None], tf.shape(x0))
        zero = tf.zeros_like(fx)
        total = None
        for dx, dy, weight in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                               (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            xi, yi = x0 + dx, y0 + dy
            valid = inside & (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)
            index = tf.stack([rows, tf.clip_by_value(yi, 0, height - 1),
                              tf.clip_by_value(xi, 0, width - 1)], axis=-1)
            term = tf.gather_nd(data, index) * tf.where(valid, weight, zero)[..., None]
            total = term if total is None else total + term
        out_shape = tf.concat([warp_shape[:-1], data_shape[-1:]], 0)
        result = tf.reshape(total, out_shape, name="Resampler")
        result.set_shape(warp.shape[:-1].concatenate(data.shape[-1:]))
        return result


def _zero_signed(x):
    """``x``, whose gradient has its -0 entries made +0 (nothing else changes).

    TF 1.15's gradient of ``a - b`` summed ``-grad`` over the broadcast axes even when
    there were none, and a sum starts from +0; TF 2.21 returns ``-grad`` itself, so
    where a warped pixel was clamped the flow's gradient printed ``-0.`` where TF 1.15
    printed ``0.``. Adding +0 restores TF1's zeros.
    """
    import tensorflow as tf

    @tf.custom_gradient
    def identity(value):
        return tf.identity(value), lambda grad: grad + tf.zeros_like(grad)

    return identity(x)


def dense_image_warp(image, flow, name="dense_image_warp"):
    """Warps ``image`` [batch, height, width, channels] by the per-pixel ``flow``
    [batch, height, width, 2]: output ``(i, j)`` reads ``image`` at
    ``(i - flow[..., 0], j - flow[..., 1])``, bilinearly, clamped to the image."""
    import tensorflow as tf

    with tf.compat.v1.name_scope(name, "dense_image_warp", [image, flow]):
        image = tf.convert_to_tensor(image, name="image")
        flow = tf.convert_to_tensor(flow, name="flow")
        _static_check(image, "dense_image_warp: image ([batch, height, width, channels])",
                      rank=4)
        _static_check(flow, "dense_image_warp: flow ([batch, height, width, 2])", rank=4,
                      last=2)
        dtype = image.dtype
        flow = tf.cast(flow, dtype)
        shape = tf.shape(image)
        batch, height, width = shape[0], shape[1], shape[2]
        checks = [tf.debugging.assert_greater_equal(
            size, 2, message=f"dense_image_warp: the image {what} must be at least 2 "
                             f"pixels (bilinear sampling reads two)")
            for size, what in ((height, "height"), (width, "width"))]
        with tf.control_dependencies(checks):
            grid_y, grid_x = tf.meshgrid(tf.range(height), tf.range(width), indexing="ij")
        grid = tf.cast(tf.stack([grid_y, grid_x], axis=-1), dtype)
        query = grid[None] - _zero_signed(flow)

        def corner_and_alpha(q, size):
            top = tf.clip_by_value(tf.floor(q), 0, tf.cast(size - 2, dtype))
            alpha = tf.clip_by_value(q - top, 0, 1)
            return tf.cast(top, tf.int32), alpha

        y0, alpha_y = corner_and_alpha(query[..., 0], height)
        x0, alpha_x = corner_and_alpha(query[..., 1], width)
        rows = tf.broadcast_to(tf.range(batch)[:, None, None], tf.shape(y0))

        def pixel(dy, dx):
            return tf.gather_nd(image, tf.stack([rows, y0 + dy, x0 + dx], axis=-1))

        alpha_x, alpha_y = alpha_x[..., None], alpha_y[..., None]
        top_left, top_right = pixel(0, 0), pixel(0, 1)
        bottom_left, bottom_right = pixel(1, 0), pixel(1, 1)
        top = alpha_x * (top_right - top_left) + top_left
        bottom = alpha_x * (bottom_right - bottom_left) + bottom_left
        result = alpha_y * (bottom - top) + top
        result.set_shape(image.shape)
        return result

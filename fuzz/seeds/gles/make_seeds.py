#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz_gles (fuzz/fuzz_gles.c) into this folder:
GL call sequences encoded as the harness decodes them (an opcode byte, its
arguments from the next bytes). The opcodes are read from fuzz_gles.c's
`enum op`, so the seeds follow the harness; the argument tables below must
follow its tables (same order). Run after changing the harness's decoding:
    python3 fuzz/seeds/gles/make_seeds.py
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "..", "..", "fuzz_gles.c")).read()
OPS = [o.strip() for o in re.search(r"enum op \{(.*?)\};", SRC, re.S).group(1).split(",")]
OPS = [o for o in OPS if o]

# the harness's tables (index = the byte that picks the entry)
SINT = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 63, 64, 100, 255, 256, 1000, 4095, 4096,
        4097, -1, -2, -100, 2**31 - 1, -2**31]
SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 128, 255, 256]
FLOATS = [0.0, 1.0, -1.0, 0.5, 2.0, 0.25, 100.0, 3.7, -0.5, 1e30, -1e30, 3e9, -3e9, 65536.0,
          1e-30, -0.0, "inf", "-inf", "nan"]
T = {
    "buf": ["ARRAY", "ELEMENT"], "usage": ["STREAM", "STATIC", "DYNAMIC"],
    "tex": ["2D", "CUBE"], "img": ["2D", "2D", "+X", "-X", "+Y", "-Y", "+Z", "-Z"],
    "format": ["RGBA", "RGB", "LA", "L", "A", "DEPTH"],
    "type": ["UB", "UB", "565", "4444", "5551", "US", "UI"],
    "texp": ["MIN", "MAG", "WRAP_S", "WRAP_T"],
    "texv": ["NEAREST", "LINEAR", "NMN", "LMN", "NML", "LML", "REPEAT", "CLAMP", "MIRROR"],
    "rbf": ["RGBA4", "RGB5_A1", "RGB565", "D16", "S8", "RGB8", "RGBA8", "D24"],
    "att": ["COLOR", "DEPTH", "STENCIL"], "stype": ["VS", "FS"],
    "mode": ["POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "STRIP", "FAN"],
    "itype": ["UB", "US", "UI"],
    "cap": ["CULL", "POFFSET", "A2C", "COVERAGE", "SCISSOR", "STENCIL", "DEPTH", "BLEND",
            "DITHER"],
    "func": ["NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"],
    "face": ["FRONT", "BACK", "BOTH"],
    "sop": ["KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INVERT", "INCR_WRAP", "DECR_WRAP"],
    "atype": ["FLOAT", "FLOAT", "BYTE", "UB", "SHORT", "US", "FIXED"],
    "one": ["X"],
    "bfilter": ["NEAREST", "NEAREST2", "LINEAR", "LINEAR2", "LML", "NONE"],
}


class Seq:
    def __init__(self, setup=0x00):
        self.b = bytearray([setup])

    def op(self, name):
        self.b.append(OPS.index("OP_" + name))
        return self

    def pick(self, table, value):
        self.b.append(T[table].index(value))
        return self

    def byte(self, v):
        self.b.append(v & 0xFF)
        return self

    def u16(self, v):
        self.b += struct.pack("<H", v & 0xFFFF)
        return self

    def sint(self, v):
        self.b.append(SINT.index(v))
        return self

    def size(self, v):
        self.b.append(SIZES.index(v))
        return self

    def flt(self, v):
        self.b.append(FLOATS.index(v))
        return self

    def raw(self, data):
        self.b += data
        return self

    def write(self, name):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(bytes(self.b))


def program(s, b):
    """OP_BUILTIN_PROGRAM: VS_TABLE[b % 5], FS_TABLE[(b >> 4) % 5]."""
    return s.op("BUILTIN_PROGRAM").byte(b)


def attrib(s, idx, size, stride, off, atype="FLOAT"):
    s.op("VERTEX_ATTRIB_POINTER").byte(idx).byte(size).pick("atype", atype).byte(0)
    s.byte(stride).u16(off)
    return s.op("ENABLE_ATTRIB").byte(idx)


def draw_arrays(s, mode, first, count):
    return s.op("DRAW_ARRAYS").pick("mode", mode).byte(0).byte(first).byte(count) \
            .pick("itype", "US").u16(0)


def draw_elements(s, mode, count, itype, off):
    return s.op("DRAW_ELEMENTS").pick("mode", mode).byte(0).byte(0).byte(count) \
            .pick("itype", itype).u16(off)


def tex_image(s, target, level, fmt, typ, w, h, pixels=b""):
    s.op("TEX_IMAGE").pick("img", target).byte(level + 1).pick("format", fmt).byte(0)
    s.pick("type", typ).size(w)
    if w == h:
        s.byte(0)
    else:
        s.byte(0x80).size(h)
    s.byte(0)  # border 0
    if not pixels:
        return s.byte(0xFF)  # NULL pixels
    s.byte(0)  # pixels from the input: exactly the bytes the rectangle needs
    return s.raw(pixels)


# 1. a program from the tables, client arrays, draws, clear, read, swap
s = Seq(0x1F)
program(s, 0x11)
attrib(s, 0, 4, 0, 0)
attrib(s, 1, 2, 8, 64)
draw_arrays(s, "TRIANGLES", 0, 3)
draw_arrays(s, "STRIP", 1, 4)
draw_elements(s, "TRIANGLES", 6, "US", 256)
draw_elements(s, "LINES", 4, "UI", 512)
s.op("CLEAR").byte(7).op("READ_PIXELS").sint(0).sint(0).byte(8).byte(8)
s.op("FLUSH").op("SWAP").write("draw-client-arrays")

# 2. buffers: data, sub data, map, element array buffer, draws from them
s = Seq(0x47)
s.op("GEN_BUFFERS").byte(2)
s.op("BIND_BUFFER").pick("buf", "ARRAY").byte(1)
s.op("BUFFER_DATA").pick("buf", "ARRAY").byte(0).u16(96).pick("usage", "STATIC").byte(0)
s.raw(bytes(range(64)))
s.op("BUFFER_SUB_DATA").pick("buf", "ARRAY").sint(16).sint(8).raw(b"\x00\x00\x80\x3f" * 2)
s.op("BIND_BUFFER").pick("buf", "ELEMENT").byte(2)
s.op("BUFFER_DATA").pick("buf", "ELEMENT").byte(0).u16(12).pick("usage", "DYNAMIC").byte(0)
s.raw(bytes([0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0]))
s.op("MAP_BUFFER").pick("buf", "ELEMENT").pick("one", "X").byte(0)
s.op("GET_BUFFER_POINTER").pick("buf", "ELEMENT").pick("one", "X")
s.op("UNMAP_BUFFER").pick("buf", "ELEMENT")
program(s, 0x00)
attrib(s, 0, 3, 12, 0)
draw_elements(s, "TRIANGLES", 6, "US", 0)
draw_elements(s, "FAN", 4, "UB", 2)
s.op("DELETE_BUFFERS").byte(1).byte(1)
draw_arrays(s, "POINTS", 0, 2)
s.write("buffers-map-draw")

# 3. textures: upload, parameters, mipmaps, sub images, copies, cube faces
s = Seq(0x00)
s.op("GEN_TEXTURES").byte(2)
s.op("BIND_TEXTURE").pick("tex", "2D").byte(1)
tex_image(s, "2D", 0, "RGBA", "UB", 4, 4, bytes(range(64)))
s.op("TEX_PARAMETER").pick("tex", "2D").pick("texp", "MIN").pick("texv", "LML").byte(0)
s.op("GENERATE_MIPMAP").pick("tex", "2D")
s.op("TEX_SUB_IMAGE").pick("img", "2D").byte(1).sint(1).sint(1).pick("format", "RGBA")
s.pick("type", "4444").size(2).size(2).byte(0).raw(bytes(range(8)))
s.op("PIXEL_STORE").byte(1).sint(1)
tex_image(s, "2D", 1, "RGB", "565", 2, 2, bytes(range(8)))
s.op("COPY_TEX_IMAGE").pick("img", "2D").byte(1).pick("format", "RGB").sint(0).sint(0)
s.size(8).byte(0).byte(0)
s.op("COPY_TEX_SUB_IMAGE").pick("img", "2D").byte(1).sint(0).sint(0).sint(2).sint(2)
s.size(4).size(4)
s.op("ACTIVE_TEXTURE").byte(1)
s.op("BIND_TEXTURE").pick("tex", "CUBE").byte(2)
for face in ["+X", "-X", "+Y", "-Y", "+Z", "-Z"]:
    tex_image(s, face, 0, "LA", "UB", 2, 2, bytes(range(8)))
s.op("GENERATE_MIPMAP").pick("tex", "CUBE")
s.op("TEXTURE_COMPLETE").byte(1).pick("tex", "CUBE")
tex_image(s, "2D", 0, "DEPTH", "UI", 3, 5, bytes(range(60)))
program(s, 0x24)
attrib(s, 0, 4, 0, 0)
draw_arrays(s, "TRIANGLES", 0, 6)
s.write("textures")

def blit(s, src, dst, mask, filt):
    """OP_BLIT_FRAMEBUFFER: the rectangles (sints), the mask byte (bits 0..2:
    COLOR, DEPTH, STENCIL; 0xF8 then a raw u32), the filter."""
    s.op("BLIT_FRAMEBUFFER")
    for v in list(src) + list(dst):
        s.sint(v)
    if mask > 7:
        s.byte(0xF8).raw(struct.pack("<I", mask))
    else:
        s.byte(mask)
    return s.pick("bfilter", filt)


# 4. framebuffer objects: color texture, depth and stencil renderbuffers
s = Seq(0x29)
s.op("GEN_FRAMEBUFFERS").byte(1).op("BIND_FRAMEBUFFER").byte(0).byte(1)
s.op("GEN_TEXTURES").byte(1).op("BIND_TEXTURE").pick("tex", "2D").byte(1)
tex_image(s, "2D", 0, "RGBA", "UB", 16, 16)
s.op("FRAMEBUFFER_TEXTURE").byte(0).pick("att", "COLOR").pick("img", "2D").byte(1).byte(0)
s.op("CHECK_FRAMEBUFFER").byte(0)
s.op("GEN_RENDERBUFFERS").byte(2)
s.op("BIND_RENDERBUFFER").byte(0).byte(1)
s.op("RENDERBUFFER_STORAGE").byte(0).pick("rbf", "D16").size(16).byte(0)
s.op("FRAMEBUFFER_RENDERBUFFER").byte(0).pick("att", "DEPTH").byte(0).byte(1)
s.op("BIND_RENDERBUFFER").byte(0).byte(2)
s.op("RENDERBUFFER_STORAGE").byte(0).pick("rbf", "S8").size(16).byte(0)
s.op("FRAMEBUFFER_RENDERBUFFER").byte(0).pick("att", "STENCIL").byte(0).byte(2)
s.op("CHECK_FRAMEBUFFER").byte(0)
s.op("GET_FB_ATTACHMENT").byte(0).pick("att", "STENCIL").byte(1)
s.op("GET_RB_PARAMETER").byte(0).byte(8)
s.op("ENABLE").pick("cap", "STENCIL").op("ENABLE").pick("cap", "DEPTH")
s.op("STENCIL_FUNC").pick("face", "BOTH").pick("func", "EQUAL").sint(1).raw(b"\xff" * 4).byte(1)
s.op("STENCIL_OP").pick("face", "BACK").pick("sop", "INCR").pick("sop", "KEEP")
s.pick("sop", "REPLACE").byte(0)
program(s, 0x42)
attrib(s, 0, 4, 0, 0)
attrib(s, 1, 2, 0, 128)
s.op("CLEAR").byte(7)
draw_arrays(s, "TRIANGLES", 0, 3)
s.op("READ_PIXELS").sint(0).sint(0).byte(16).byte(16)
s.op("BIND_FRAMEBUFFER").byte(0).byte(0)
s.op("DELETE_RENDERBUFFERS").byte(1).byte(1)
s.op("DELETE_TEXTURES").byte(1).byte(1)
s.op("SWAP").write("framebuffer-depth-stencil")

# 4b. blits (GL_NV_framebuffer_blit): an object of color and depth textures
# drawn, blitted into the window flipped and scaled (NEAREST, LINEAR, under
# a scissor box, partly outside the source), its depth and color into a
# second object, a stencil blit (refused by the device), a bad mask; a
# 32x16 window (its tile grid takes the 16x16 objects)
s = Seq(0x7F)
s.op("GEN_FRAMEBUFFERS").byte(2).op("BIND_FRAMEBUFFER").byte(0).byte(1)
s.op("GEN_TEXTURES").byte(4)
for color, depth in ((1, 2), (3, 4)):
    s.op("BIND_TEXTURE").pick("tex", "2D").byte(color)
    tex_image(s, "2D", 0, "RGBA", "UB", 16, 16)
    s.op("FRAMEBUFFER_TEXTURE").byte(0).pick("att", "COLOR").pick("img", "2D").byte(color).byte(0)
    s.op("BIND_TEXTURE").pick("tex", "2D").byte(depth)
    tex_image(s, "2D", 0, "DEPTH", "UI", 16, 16)
    s.op("FRAMEBUFFER_TEXTURE").byte(0).pick("att", "DEPTH").pick("img", "2D").byte(depth).byte(0)
    if color == 1:
        program(s, 0x11)
        attrib(s, 0, 4, 0, 0)
        s.op("ENABLE").pick("cap", "DEPTH")
        s.op("CLEAR").byte(3)
        draw_arrays(s, "TRIANGLES", 0, 3)
        # (a draw made runs its program in the interpreter on four seeds)
        s.flt(0.5).flt(0.25).flt(1.0).flt(0.0)
        s.op("BIND_FRAMEBUFFER").byte(0).byte(2)
s.op("CLEAR").byte(3)
s.op("BIND_FRAMEBUFFER").byte(0).byte(0)  # the window draws
s.op("BIND_FRAMEBUFFER").byte(2).byte(1)  # object 1 is read
blit(s, (0, 0, 16, 16), (32, 0, 0, 32), 1, "NEAREST")
blit(s, (0, 16, 16, 0), (0, 0, 8, 8), 1, "LINEAR")
s.op("ENABLE").pick("cap", "SCISSOR").op("SCISSOR").sint(4).sint(4).sint(8).sint(8)
blit(s, (-1, 0, 17, 16), (0, 0, 31, 15), 1, "NEAREST")
s.op("DISABLE").pick("cap", "SCISSOR")
s.op("READ_PIXELS").sint(0).sint(0).byte(16).byte(16)
s.op("BIND_FRAMEBUFFER").byte(3).byte(2)  # object 2 draws
blit(s, (0, 0, 16, 16), (0, 0, 16, 16), 2, "NEAREST")
blit(s, (0, 0, 8, 8), (0, 0, 16, 16), 3, "NEAREST")
blit(s, (0, 0, 16, 16), (0, 0, 16, 16), 2, "LINEAR")
blit(s, (0, 0, 16, 16), (0, 0, 16, 16), 4, "NEAREST")
blit(s, (0, 0, 16, 16), (0, 0, 16, 16), 0x11, "NEAREST")
draw_arrays(s, "TRIANGLES", 0, 3)
s.op("SWAP").write("framebuffer-blit")

# 5. shaders from the input: a good one, a bad one, logs, sources, a link
VS = b"attribute vec4 p;\nuniform vec4 u[3];\nvoid main() { gl_Position = p + u[1]; }\n"
FS = b"precision mediump float;\nvoid main() { gl_FragColor = vec4(undeclared); }\n"
s = Seq(0x05)
s.op("CREATE_SHADER").pick("stype", "VS").op("CREATE_SHADER").pick("stype", "FS")
s.op("SHADER_SOURCE").byte(1).byte(1).u16(len(VS)).raw(VS).byte(0).byte(1)
s.op("SHADER_SOURCE").byte(2).byte(1).u16(len(FS)).raw(FS).byte(0x80).byte(1)
s.op("COMPILE_SHADER").byte(1).op("COMPILE_SHADER").byte(2)
s.op("GET_SHADER_LOG").byte(2).byte(1).byte(0)
s.op("GET_SHADER_LOG").byte(1).byte(1).byte(1)
s.op("CREATE_PROGRAM").op("ATTACH_SHADER").byte(3).byte(1).op("ATTACH_SHADER").byte(3).byte(2)
s.op("LINK_PROGRAM").byte(3).op("GET_PROGRAM_LOG").byte(3).byte(1)
s.op("SHADER_SOURCE_BUILTIN").byte(2).byte(0x02)
s.op("COMPILE_SHADER").byte(2)
s.op("BIND_ATTRIB_LOCATION").byte(3).byte(5).byte(0)
s.op("LINK_PROGRAM").byte(3).op("USE_PROGRAM").byte(3)
s.op("GET_ACTIVE").byte(3).byte(0).byte(1).byte(0)
s.op("GET_LOCATION").byte(3).byte(0).byte(1)
s.op("UNIFORM_FV").byte(1).byte(3).byte(2).raw(bytes(range(32)))
s.op("VALIDATE_PROGRAM").byte(3).op("GET_PROGRAM").byte(3).byte(2)
s.op("DETACH_SHADER").byte(3).byte(1).op("DELETE_SHADER").byte(1)
s.op("DELETE_PROGRAM").byte(3).op("USE_PROGRAM").byte(0)
s.write("shaders-from-input")

# 6. uniforms of every type through a program of the tables
s = Seq(0x12)
program(s, 0x22)  # VS 2 (mat3, mat2, vec4[2], float) + FS 2 (samplers, int, vec3)
for loc in range(12):
    s.op("UNIFORM_F").byte(loc + 1).byte(loc).raw(bytes([1, 3, 4, 2, 0, 1, 2, 3]))
    s.op("UNIFORM_I").byte(loc + 1).byte(loc).raw(bytes([1, 3, 4, 2, 0, 1, 2, 3]))
    s.op("UNIFORM_MATRIX").byte(loc + 1).byte(loc).byte(1).raw(bytes(32)).byte(0)
    s.op("GET_UNIFORM").byte(3).byte(loc + 1).byte(loc)
program(s, 0x33)  # VS 3 (ivec2, bool, bvec3, sampler) + FS 3 (ivec4, bvec2, mat4)
for loc in range(10):
    s.op("UNIFORM_IV").byte(loc + 1).byte(loc).byte(2).raw(bytes(range(32)))
    s.op("UNIFORM_FV").byte(loc + 1).byte(loc).byte(1).raw(bytes(range(32)))
program(s, 0x44)  # VS 4 (struct array) + FS 4
for loc in range(6):
    s.op("UNIFORM_FV").byte(loc + 1).byte(loc).byte(2).raw(bytes(range(32)))
s.write("uniforms")

# 7. every fixed-function state, and Gets of each
s = Seq(0x80)
s.op("VIEWPORT").sint(1).sint(2).sint(16).sint(8)
s.op("SCISSOR").sint(0).sint(0).sint(4).sint(4)
s.op("DEPTH_RANGE").flt(0.25).flt(0.5).op("CULL_FACE").pick("face", "FRONT")
s.op("FRONT_FACE").byte(0).op("LINE_WIDTH").flt(2.0).op("POLYGON_OFFSET").flt(1.0).flt(2.0)
s.op("SAMPLE_COVERAGE").flt(0.5).byte(1)
s.op("DEPTH_FUNC").pick("func", "GEQUAL").op("DEPTH_MASK").byte(0)
s.op("BLEND_FUNC").byte(6).byte(7).byte(1).byte(0).byte(0)
s.op("BLEND_EQUATION").byte(1).byte(2).byte(0)
s.op("BLEND_COLOR").flt(0.5).flt(0.25).flt(1.0).flt(0.0)
s.op("COLOR_MASK").byte(1).byte(0).byte(1).byte(0)
s.op("CLEAR_VALUES").byte(0).flt(0.5).flt(2.0).flt(-1.0).flt(1.0)
s.op("CLEAR_VALUES").byte(1).flt(0.25).op("CLEAR_VALUES").byte(2).sint(255)
s.op("STENCIL_MASK").byte(0).raw(b"\x0f\x00\x00\x00").byte(0)
s.op("HINT").byte(0).byte(1).op("HINT").byte(1).byte(0)
for cap in T["cap"]:
    s.op("ENABLE").pick("cap", cap).op("IS_ENABLED").pick("cap", cap)
s.op("POLYGON_OFFSET").flt(1e30).flt("nan")
s.op("LINE_WIDTH").flt(3e9)
s.op("VERTEX_ATTRIB").byte(3).byte(3).flt(1e30).flt(-3e9).flt("inf").flt(0.5)
s.op("GET_VERTEX_ATTRIB").byte(3).byte(6).byte(0)
for k in range(90):
    s.op("GET").byte(k)
s.op("GET_STRING").byte(4)
s.op("CLEAR").byte(3)
s.write("state-and-gets")


# 8. each shader of the harness's tables, its text in the input (so that
# mutations edit real GLSL), compiled, linked with a partner, drawn
def c_table(name):
    body = re.search(r"%s\[\] = \{(.*?)\n\};" % name, SRC, re.S).group(1)
    shaders, cur = [], ""
    for line in body.split("\n"):
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
            cur += lit.encode().decode("unicode_escape")
        if line.rstrip().endswith(","):
            shaders.append(cur)
            cur = ""
    return shaders


def source_from_input(s, shader, text):
    data = text.encode()
    parts = [data[i:i + 300] for i in range(0, len(data), 300)]
    s.op("SHADER_SOURCE").byte(shader).byte(len(parts))
    for part in parts:
        s.u16(len(part)).raw(part).byte(0)
    return s.byte(0)  # no lengths: NUL-terminated


VS_SRC, FS_SRC = c_table("VS_TABLE"), c_table("FS_TABLE")
# a fragment shader each vertex shader links with (its varyings)
PARTNER_FS = [0, 1, 2, 2, 4]
for i, text in enumerate(VS_SRC):
    s = Seq(0x0C)
    s.op("CREATE_SHADER").pick("stype", "VS").op("CREATE_SHADER").pick("stype", "FS")
    source_from_input(s, 1, text)
    s.op("SHADER_SOURCE_BUILTIN").byte(2).byte(PARTNER_FS[i])
    s.op("COMPILE_SHADER").byte(1).op("COMPILE_SHADER").byte(2)
    s.op("CREATE_PROGRAM").op("ATTACH_SHADER").byte(3).byte(1).op("ATTACH_SHADER").byte(3).byte(2)
    s.op("LINK_PROGRAM").byte(3).op("USE_PROGRAM").byte(3)
    for loc in range(4):
        s.op("UNIFORM_FV").byte(loc + 1).byte(3).byte(1).raw(bytes(range(32)))
    attrib(s, 0, 4, 0, 0)
    attrib(s, 1, 3, 0, 256)
    draw_arrays(s, "TRIANGLES", 0, 3)
    s.write("vs-%d" % i)
PARTNER_VS = [0, 1, 2, 1, 2]
for i, text in enumerate(FS_SRC):
    s = Seq(0x0C)
    s.op("CREATE_SHADER").pick("stype", "VS").op("CREATE_SHADER").pick("stype", "FS")
    s.op("SHADER_SOURCE_BUILTIN").byte(1).byte(PARTNER_VS[i])
    source_from_input(s, 2, text)
    s.op("COMPILE_SHADER").byte(1).op("COMPILE_SHADER").byte(2)
    s.op("CREATE_PROGRAM").op("ATTACH_SHADER").byte(3).byte(1).op("ATTACH_SHADER").byte(3).byte(2)
    s.op("LINK_PROGRAM").byte(3).op("USE_PROGRAM").byte(3)
    for loc in range(4):
        s.op("UNIFORM_IV").byte(loc + 1).byte(0).byte(1).raw(bytes(range(32)))
    attrib(s, 0, 4, 0, 0)
    draw_arrays(s, "TRIANGLES", 0, 3)
    s.write("fs-%d" % i)

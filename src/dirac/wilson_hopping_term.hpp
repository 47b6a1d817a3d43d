#pragma once
// The Wilson hopping term between parities as one public object, with the kernel and the face exchange the
// even-odd operators run (dirac/wilson_even_odd.hpp): what lqcd bench times, without the caller building
// kernels or face exchanges itself. One call computes, on the sites of `out`,
//   out = (c0 + i c5 gamma_5) x + alpha H in          (dirac/wilson_kernels.hpp; x only when given)
// with the hops across split faces exchanged and overlapped with the interior (dirac/face_exchange.hpp).
// For measuring that overlap it also offers the call's parts one by one. The object holds pointers to
// the fields it was made with: they must outlive it.

#include <cstdint>
#include <memory>

#include "core/dispatch.hpp"
#include "dirac/face_exchange.hpp"
#include "dirac/visiting_order.hpp"
#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real, int LinkComponents>
class WilsonHoppingTerm {
 public:
  using Exchange = FaceExchange<Real, LinkComponents>;
  // Bytes of one face site's message (a projected half spinor in the arithmetic precision).
  static constexpr std::size_t kMessageBytesPerFaceSite = 6 * sizeof(typename Exchange::Message);
  // DRAM traffic per output site at best (links and input once, output once; hopping_traffic_bytes).
  static constexpr std::int64_t kTrafficBytesPerSite = hopping_traffic_bytes<Real, LinkComponents>();

  // x: the site term's input (nullptr: none, c0 and c5 unused); the visiting order is the one the
  // operators use on out's geometry (dirac/visiting_order.hpp).
  WilsonHoppingTerm(const GaugeField<Real, LinkComponents>& U, const SpinorField<Real>& in, SpinorField<Real>& out,
                    const SpinorField<Real>* x, const FermionBoundary& boundary, double alpha, double c0 = 1,
                    double c5 = 0)
      : in_(&in), out_(&out),
        k_{U.view(),
           in.view(),
           out.view(),
           x ? x->view() : SpinorView<Real>{},
           boundary,
           alpha,
           c0,
           c5,
           x ? 1 : 0,
           0,
           hopping_t_tile(out.geometry(), kTrafficBytesPerSite)} {}

  // The same term on other fields of the same shape (lqcd bench's copies that keep L2 from serving a
  // call from the previous one).
  WilsonHoppingTerm with_fields(const GaugeField<Real, LinkComponents>& U, const SpinorField<Real>& in,
                                SpinorField<Real>& out, const SpinorField<Real>* x) const {
    WilsonHoppingTerm h = *this;
    h.in_ = &in;
    h.out_ = &out;
    h.k_.U = U.view();
    h.k_.in = in.view();
    h.k_.out = out.view();
    if (x) h.k_.x = x->view();
    h.faces_.reset();
    return h;
  }

  int t_tile() const { return k_.t_tile; }

  // One call: interior and faces overlapped.
  void apply() const { run_hopping_term(k_, k_.U, *in_, *out_, k_.boundary, k_.alpha, k_.dagger); }

  // The parts of a call on a decomposed lattice, each for timing alone:
  // the hops that stay in this process's box (out then lacks the face hops);
  void interior() const { for_each(out_->location(), out_->sites(), k_); }
  // the face messages alone (pack, send, receive), waited for;
  void exchange() const { Exchange(k_.U, *in_, *out_, k_.dagger).wait(); }
  // exchange, then the kernels, without overlap;
  void serial() const {
    Exchange f(k_.U, *in_, *out_, k_.dagger);
    f.wait();
    if (out_->location() == Location::Device) detail::device_synchronize();
    for_each(out_->location(), out_->sites(), k_);
    f.add_face_hops(k_.U, *out_, k_.boundary, k_.alpha, k_.dagger);
  }
  // the kernels alone on faces received once (receive_faces first): interior and face hops.
  void receive_faces() {
    faces_ = std::make_shared<Exchange>(k_.U, *in_, *out_, k_.dagger);
    faces_->wait();
  }
  void compute_on_received_faces() const {
    for_each(out_->location(), out_->sites(), k_);
    faces_->add_face_hops(k_.U, *out_, k_.boundary, k_.alpha, k_.dagger);
  }
  // Bytes this process sends per exchange (after receive_faces).
  double face_bytes_sent() const { return faces_ ? faces_->bytes_sent() : 0.0; }

 private:
  const SpinorField<Real>* in_;
  SpinorField<Real>* out_;
  WilsonHoppingKernel<Real, LinkComponents> k_;
  std::shared_ptr<Exchange> faces_;  // receive_faces' exchange
};

}  // namespace lqcd

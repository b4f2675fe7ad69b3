// Horizontal volume-by-price histogram of one session, value area shaded, POC marked.
#pragma once

#include "ui/vpoc/profile_geometry.h"

#include <QWidget>

#include <functional>
#include <string>

namespace stackscope::ui {

class VolumeProfileView : public QWidget {
    Q_OBJECT
public:
    explicit VolumeProfileView(QWidget* parent = nullptr);

    // `priceText` formats a tick as a price ("5123.25").
    void setProfile(ProfileInput profile, std::function<QString(int32_t)> priceText);
    void clear();
    const ProfileInput& profile() const { return m_profile; }
    QSize sizeHint() const override { return {320, 420}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRectF plotArea() const;

    ProfileInput m_profile;
    std::function<QString(int32_t)> m_priceText;
};

} // namespace stackscope::ui
